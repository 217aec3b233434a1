/**
 * The estimator of one heating or cooling segment of a heater (from a target change, or from
 * switching off, to the next): it measures the trend, feeds the rate profile, asks the approach
 * model for the raw ETA and counts the displayed ETA down. It also latches "reached", so sensor
 * noise around the threshold cannot flip a heater between `at_target` and `heating`.
 *
 * The two algorithms share the model and differ in how the current state is measured:
 * - `linear`: the straight-line trend over `linear_window`; the rate extrapolated along the
 *   learned first-order curve;
 * - `exponential`: additionally, per candidate asymptote, a first-order fit over
 *   `exponential_window` (≥ 6 samples over ≥ 5 s, τ ≤ `exponential_max_tau`) gives the
 *   temperature and time constant now — less noise close to the target; without it, linear.
 *
 * In the braking band before a heating target both also check the profile against the last
 * minute of readings (`recent.ts`: a heater clearly slower than its profile moves the estimate
 * towards the recent fit), and the countdown follows small downward revisions there gradually.
 *
 * @module
 */
import { approachEta, type ApproachInput, type CurrentFit, inBrakingBand } from "./approach.ts";
import { Countdown } from "./countdown.ts";
import {
  type EstimateOptions,
  linearTrend,
  MIN_EXPONENTIAL,
  type Sample,
  spanOf,
  windowFit,
  windowOf,
} from "./estimate.ts";
import { memoryFor, RateProfile } from "./profile.ts";
import { blendRecent, recentApproach } from "./recent.ts";

/** A segment's estimate at one moment. */
export interface SegmentEstimate {
  /** The straight-line rate over `linear_window`, °C/s; null with too few samples. */
  rate: number | null;
  /** The fitted temperature now; null with too few samples. */
  now: number | null;
  /** The displayed (counted-down) ETA, s; null when none can be given. */
  eta: number | null;
  /** The model's estimate before the countdown smoothing. */
  raw: number | null;
  method: "linear" | "exponential" | null;
}

/** Share of the window a trend must span before it feeds the profile. */
const FULL_WINDOW = 0.8;

/** The estimator of one segment. */
export class SegmentTracker {
  readonly heating: boolean;
  /** The target (heating) or the cooling target. */
  readonly target: number;
  readonly start: number;
  #profile = new RateProfile();
  #countdown = new Countdown();
  #nextPoint = -Infinity;
  #restartedAt = -Infinity;
  #reached = false;

  constructor(heating: boolean, target: number, start: number) {
    this.heating = heating;
    this.target = target;
    this.start = start;
  }

  /**
   * Whether the heater counts as arrived at `now` (°C): within `threshold` of the goal, and once
   * arrived it stays so until it is `2 × threshold` away again.
   */
  arrived(now: number, threshold: number): boolean {
    const distance = this.heating ? this.target - now : now - this.target;
    this.#reached = distance <= (this.#reached ? 2 * threshold : threshold);
    return this.#reached;
  }

  /** Measures, learns and estimates from the segment's samples (oldest first). */
  estimate(samples: readonly Sample[], o: EstimateOptions): SegmentEstimate {
    const trend = linearTrend(samples, o.linearWindow);
    const newest = samples[samples.length - 1];
    if (!trend || !newest) return { rate: null, now: null, eta: null, raw: null, method: null };
    const sign = this.heating ? 1 : -1;
    const input: ApproachInput = {
      x: sign * trend.now,
      start: sign * this.start,
      target: sign * this.target,
      goal: sign * this.target - o.threshold,
      heating: this.heating,
    };
    if (newest.t >= this.#nextPoint && trend.span >= FULL_WINDOW * o.linearWindow) {
      const rate = sign * trend.rate, x = sign * trend.mid;
      this.#profile.add(
        { t: newest.t, x, rate, variance: trend.variance },
        memoryFor(input.target - x, rate),
      );
      // A new peak restarts the profile; the exponential fit starts there too.
      if (this.#profile.count === 1) this.#restartedAt = newest.t - o.linearWindow / 2;
      this.#nextPoint = newest.t + o.linearWindow / 2;
    }
    const base = { rate: trend.rate, now: trend.now };
    // With one point the estimate is mostly the prior; the countdown's smoothing absorbs it.
    if (this.#profile.count === 0) return { ...base, eta: null, raw: null, method: null };
    let method: SegmentEstimate["method"] = "linear";
    let current: CurrentFit | undefined;
    if (o.algorithm === "exponential") {
      const since = windowOf(samples, o.exponentialWindow).filter((s) => s.t >= this.#restartedAt)
        .map((s) => ({ t: s.t, actual: sign * s.actual }));
      if (since.length >= MIN_EXPONENTIAL.samples && spanOf(since) >= MIN_EXPONENTIAL.span) {
        method = "exponential";
        current = (a) => windowFit(since, a, o.maxTau);
      }
    }
    const braking = inBrakingBand(input);
    let raw = approachEta(this.#profile, input, current);
    const profileK = this.#profile.fitThrough(input.target)?.k;
    if (braking && raw !== null && profileK !== undefined) {
      const since = samples.filter((s) => s.t >= this.#restartedAt);
      raw = blendRecent(
        raw,
        recentApproach(since, this.target, this.target - o.threshold),
        profileK,
      );
    }
    const eta = this.#countdown.update(newest.t, raw, braking);
    return { ...base, eta, raw, method: eta === null ? null : method };
  }
}
