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
 * Profile points come from the `linear_window` trend when its rate is precise, else from longer
 * windows of 5 s bucket means (`buckets.ts`; a slow heater). The first estimate waits until the
 * data, not the prior, decides it. In the braking band before a heating target the readings
 * decide how the heater ends: while it keeps most of its edge rate, a hot end's estimate made at
 * the edge counts down (a bed's follows its full-power curve); once its rate falls below
 * {@linkcode BRAKING_SEEN} of it, the ETA is a first-order fit to the target of the readings since.
 * Both algorithms also check the profile against the last minute of readings (`recent.ts`), and
 * the countdown follows small downward revisions there gradually. The buckets also tell whether
 * the heater settles short of its goal (`settle.ts`).
 *
 * @module
 */
import {
  type ApproachInput,
  approachRange,
  BRAKING_SLOWDOWN,
  type CurrentFit,
  inBrakingBand,
} from "./approach.ts";
import { Countdown } from "./countdown.ts";
import {
  type EstimateOptions,
  linearTrend,
  MIN_EXPONENTIAL,
  type Sample,
  spanOf,
  type Trend,
  windowFit,
  windowOf,
} from "./estimate.ts";
import { memoryFor, RateProfile } from "./profile.ts";
import { BUCKET_SECONDS, SampleBuckets } from "./buckets.ts";
import { type ApproachFit, fitApproach } from "./fit.ts";
import { settleVerdict } from "./settle.ts";
import { blendRecent, recentApproach } from "./recent.ts";

/** A segment's estimate at one moment. */
export interface SegmentEstimate {
  /** The straight-line rate over `linear_window`, °C/s; null with too few samples. */
  rate: number | null;
  /** The fitted temperature now; null with too few samples. */
  now: number | null;
  /** Standard deviation of `now`. */
  nowSd?: number;
  /** The displayed (counted-down) ETA, s; null when none can be given. */
  eta: number | null;
  /** The model's estimate before the countdown smoothing. */
  raw: number | null;
  method: "linear" | "exponential" | null;
}

/** Share of the window a trend must span before it feeds the profile. */
const FULL_WINDOW = 0.8;
/** The first estimate waits until the quartiles of the candidates' ETAs are within this ratio. */
const SURE_SPREAD = 1.5;
/**
 * … or at this many profile points once this share of the way is done (a straight line never
 * decides it; a chamber's first minutes look the same for every asymptote).
 */
const SURE_POINTS = 6;
const SURE_PROGRESS = 0.25;
/** Standard deviations of the fitted temperature the goal must be inside of to arrive. */
const ARRIVAL_Z = 2;
/** Profile points before an estimate is given. */
const MIN_POINTS = 3;
/** A point's rate must be this many of its standard deviations (relative noise ≤ 10 %). */
const POINT_PRECISION = 10;
/**
 * A long window's rate must be this many of its standard deviations (≤ 5 %): a slow heater's
 * points are few, and each one moves its asymptote a lot.
 */
const LONG_PRECISION = 20;
/** The longer windows of bucket means a slow heater's points are taken from, s. */
const LONG_WINDOWS = [30, 60, 120, 240, 480] as const;
/** In the braking band, a rate below this share of the edge's means the controller brakes. */
const BRAKING_SEEN = 0.6;
/** Standard deviations a rate must stand out by for braking to be judged on it. */
const EDGE_PRECISION = 3;

/** The estimator of one segment. */
export class SegmentTracker {
  readonly heating: boolean;
  /** The target (heating) or the cooling target. */
  readonly target: number;
  readonly start: number;
  #profile = new RateProfile();
  #buckets = new SampleBuckets();
  #countdown = new Countdown();
  #nextPoint = -Infinity;
  #restartedAt = -Infinity;
  #reached = false;
  #sure = false;
  #short = false;
  /** The oriented rate, raw ETA and time when the heater last was outside the braking band. */
  #edge: { rate: number; eta: number | null; t: number } | null = null;
  /** When the heater was first seen braking in the band. */
  #brakingSince: number | null = null;

  /** How much slower than a first-order curve the heater's controller brakes. */
  readonly slowdown: number;

  constructor(heating: boolean, target: number, start: number, slowdown = BRAKING_SLOWDOWN) {
    this.heating = heating;
    this.target = target;
    this.start = start;
    this.slowdown = slowdown;
  }

  /**
   * Whether the heater counts as arrived: every fit of the temperature now (°C, with its standard
   * deviation; the first is the current one) is within `threshold` of the goal by
   * {@linkcode ARRIVAL_Z} deviations (noise alone never arrives a heater that settles just
   * outside), and once arrived it stays so until the first is `2 × threshold` away again.
   */
  arrived(fits: ReadonlyArray<{ now: number; sd: number }>, threshold: number): boolean {
    const distance = (now: number) => this.heating ? this.target - now : now - this.target;
    this.#reached = this.#reached
      ? distance(fits[0]!.now) <= 2 * threshold
      : fits.every((f) => distance(f.now) + ARRIVAL_Z * f.sd <= threshold);
    return this.#reached;
  }

  /**
   * Whether the heater settles short of `goal` (°C), judged on minutes of bucket means (see
   * `settle.ts`); `noise` is the readings' variance, `perSecond` their rate.
   */
  settlesShort(goal: number, noise: number, perSecond: number): boolean {
    const sign = this.heating ? 1 : -1;
    const xs = this.#buckets.means.map((b) => ({ t: b.t, actual: sign * b.actual }));
    const perBucket = Math.max(1, BUCKET_SECONDS * perSecond);
    const verdict = settleVerdict(xs, sign * goal, noise / perBucket);
    // Latched: once short, the heater stays so until the blocks say it is arriving after all.
    if (verdict !== "unsure") this.#short = verdict === "short";
    return this.#short;
  }

  /**
   * The trend a profile point is taken from: the `linear_window` trend when its rate stands out
   * of its noise ({@linkcode POINT_PRECISION}), else the shortest longer window of bucket means
   * where it does (a slow heater). Null when no full window measures the rate precisely: a noisy
   * point would teach the profile a rate the heater never had.
   */
  #pointTrend(short: Trend, linearWindow: number): { trend: Trend; window: number } | null {
    const precise = (t: Trend) => Math.abs(t.rate) >= POINT_PRECISION * Math.sqrt(t.variance);
    if (short.span >= FULL_WINDOW * linearWindow && precise(short)) {
      return { trend: short, window: linearWindow };
    }
    // A bucket's noise is at least the samples' own over the samples it averages: a few
    // buckets' residuals alone can promise a precision the readings do not have.
    const perBucket = Math.max(1, (BUCKET_SECONDS * (short.count - 1)) / Math.max(short.span, 1));
    for (const window of LONG_WINDOWS) {
      if (window <= linearWindow || this.#buckets.span < FULL_WINDOW * window) break;
      const trend = this.#buckets.trend(window);
      if (!trend) break;
      const floor = short.noise / perBucket;
      const scaled = { ...trend, variance: trend.variance * Math.max(1, floor / trend.noise) };
      if (Math.abs(scaled.rate) >= LONG_PRECISION * Math.sqrt(scaled.variance)) {
        return { trend: scaled, window };
      }
    }
    return null;
  }

  /**
   * In the braking band: the rate over the last half `linear_window` when it has fallen below
   * {@linkcode BRAKING_SEEN} of the rate at the band's edge (the controller brakes), else null
   * (still at full power: the profile's estimate stands).
   */
  #brakingSeen(samples: readonly Sample[], linearWindow: number): ApproachFit | null {
    const edgeRate = this.#edge?.rate ?? NaN;
    if (!(edgeRate > 0)) return null;
    const newest = samples[samples.length - 1]!;
    if (this.#brakingSince === null) {
      const recent = linearTrend(samples, linearWindow);
      // Seen only when the rate is below the share even allowing for its noise.
      const upper = recent ? recent.rate + EDGE_PRECISION * Math.sqrt(recent.variance) : Infinity;
      if (!(upper < BRAKING_SEEN * edgeRate)) {
        return null;
      }
      this.#brakingSince = newest.t;
    }
    const since = samples.filter((s) => s.t >= this.#brakingSince!);
    if (since.length < MIN_EXPONENTIAL.samples || spanOf(since) < linearWindow / 2) return null;
    const fit = fitApproach(
      since.map((s) => s.t - newest.t),
      since.map((s) => s.actual),
      this.target,
    );
    return fit && fit.k > 0 ? fit : null;
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
      slowdown: this.slowdown,
    };
    this.#buckets.addAll(samples);
    const point = newest.t >= this.#nextPoint ? this.#pointTrend(trend, o.linearWindow) : null;
    if (point) {
      const rate = sign * point.trend.rate, x = sign * point.trend.mid;
      this.#profile.add(
        { t: newest.t, x, rate, variance: point.trend.variance },
        memoryFor(input.target - x, rate),
      );
      // A new peak restarts the profile; the exponential fit starts there too.
      if (this.#profile.count === 1) this.#restartedAt = newest.t - point.window / 2;
      this.#nextPoint = newest.t + point.window / 2;
    }
    const base = {
      rate: trend.rate,
      now: trend.now,
      nowSd: Math.sqrt(trend.nowVariance),
    };
    // With one or two points any asymptote fits: the estimate would be the prior's.
    if (this.#profile.count < MIN_POINTS) return { ...base, eta: null, raw: null, method: null };
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
    const range = approachRange(this.#profile, input, current);
    let raw = range?.eta ?? null;
    // The first estimate waits until the data, not the prior, decides it.
    if (!this.#sure && range) {
      const progress = (input.x - input.start) / Math.max(input.target - input.start, 1e-9);
      this.#sure = range.high <= SURE_SPREAD * range.low ||
        (this.#profile.count >= SURE_POINTS && progress >= SURE_PROGRESS);
    }
    if (!this.#sure) raw = null;
    if (this.heating && !braking) {
      // An edge rate within its noise of zero cannot tell braking from noise: no detection.
      const rate = sign * trend.rate;
      this.#edge = {
        rate: rate > EDGE_PRECISION * Math.sqrt(trend.variance) ? rate : NaN,
        eta: this.#countdown.shownAt(newest.t),
        t: newest.t,
      };
    } else if (braking && this.#edge) {
      // Until the controller is seen braking, the estimate made at the band's edge counts down.
      const seen = this.#brakingSeen(samples, o.linearWindow);
      const { eta, t } = this.#edge;
      raw = seen !== null
        ? (seen.gap > o.threshold ? Math.log(seen.gap / o.threshold) / seen.k : 0)
        : eta !== null && this.slowdown > 0
        ? Math.max(0, eta - (newest.t - t))
        : raw;
    }
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
