/**
 * The last degrees of a heat-up, checked against the recent samples. The rate profile learns a
 * heater over its own time scale, so when a controller leaves full power near the target (its
 * proportional part unsaturates, an integral creeps over the last degrees) the profile keeps
 * promising the earlier, faster approach for a minute or more: on the simulated bed with a long
 * tail that was 15–20 % short for the whole tail. Inside the braking band this module fits a
 * first-order approach to the target to the last {@linkcode RECENT_WINDOW} seconds of readings.
 * When that fit is slower than the profile beyond its noise, the two are blended: the weighted
 * geometric mean of their ETAs, the recent fit weighing by its precision against the profile's
 * typical model error ({@linkcode PROFILE_ERROR}). Neither alone is right: the profile lags the
 * change, and a first-order fit over the last minute misses an integral that speeds the heater up
 * again over the last degree (measured: +15 %). Only ever slower: a heater faster than its profile
 * in the band is still at full power and about to be braked (the band's countdown handles it).
 *
 * Both algorithms use it; the `algorithm` setting still decides how the current state is measured
 * for the profile's estimate (see `tracker.ts`). Pure functions, heating only, plain °C.
 *
 * @module
 */
import type { Sample } from "./estimate.ts";
import { fitApproach } from "./fit.ts";

/** Seconds of readings the recent fit uses (as many as the default history keeps). */
export const RECENT_WINDOW = 60;
/** The fit waits until the readings span this share of the window (a shorter one is too noisy). */
const FULL_WINDOW = 0.8;
/** The recent fit must be slower than the profile by this many of its standard deviations. */
export const SLOWER_Z = 2;
/** The profile's typical relative error in the band, the weight of the recent fit's precision. */
export const PROFILE_ERROR = 0.15;

/** A recent first-order fit to the target: its ETA and that ETA's relative variance. */
export interface RecentEstimate {
  eta: number;
  k: number;
  /** Variance of `k`. */
  kVariance: number;
  /** Variance of ln(eta), i.e. the relative variance of the ETA. */
  relativeVariance: number;
}

/**
 * The first-order approach to the target fitted to `samples` (oldest first; the caller passes
 * the segment's samples since the profile's last restart); null when there are too few or the
 * fit is degenerate.
 */
export function recentApproach(
  samples: readonly Sample[],
  target: number,
  goal: number,
): RecentEstimate | null {
  const last = samples[samples.length - 1];
  if (!last) return null;
  const window = samples.filter((s) => s.t >= last.t - RECENT_WINDOW);
  if (window.length < 10 || last.t - window[0]!.t < FULL_WINDOW * RECENT_WINDOW) return null;
  const fit = fitApproach(window.map((s) => s.t - last.t), window.map((s) => s.actual), target);
  if (!fit || !(fit.gap > 0) || !(fit.k > 0)) return null;
  const threshold = target - goal;
  const eta = fit.gap > threshold ? Math.log(fit.gap / threshold) / fit.k : 0;
  if (!(eta > 0)) return null;
  // ETA = ln(gap / threshold) / k: first-order error propagation.
  const dGap = 1 / (fit.gap * fit.k), dK = -eta / fit.k;
  const variance = dGap * dGap * fit.gapVariance + dK * dK * fit.kVariance +
    2 * dGap * dK * fit.covariance;
  return { eta, k: fit.k, kVariance: fit.kVariance, relativeVariance: variance / (eta * eta) };
}

/**
 * The profile's ETA (`raw`) corrected by the recent fit: unchanged unless the recent fit is
 * slower than the profile by {@linkcode SLOWER_Z} standard deviations and gives a later arrival;
 * then the precision-weighted geometric mean of the two.
 */
export function blendRecent(
  raw: number,
  recent: RecentEstimate | null,
  profileK: number,
): number {
  if (!recent || !(recent.eta > raw)) return raw;
  if (!(recent.k < profileK - SLOWER_Z * Math.sqrt(recent.kVariance))) return raw;
  const m2 = PROFILE_ERROR * PROFILE_ERROR;
  const w = m2 / (m2 + recent.relativeVariance);
  return Math.exp(w * Math.log(recent.eta) + (1 - w) * Math.log(raw));
}
