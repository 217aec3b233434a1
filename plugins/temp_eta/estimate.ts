/**
 * Measuring a heater from its samples, pure: the least-squares trend over a window (rate, fitted
 * temperature now and at the window's middle, and the rate's noise), the long trend over the whole
 * history (what "stalled" is judged on), and the exponential algorithm's window fit of the
 * current state for a given asymptote. Least squares over every sample of a window averages the
 * sensor's noise and its 0.1 °C steps instead of trusting two end points.
 *
 * @module
 */
import { fitLine } from "./fit.ts";

/** One temperature sample: time in seconds, actual temperature in °C. */
export interface Sample {
  t: number;
  actual: number;
}

/** What the estimators need from the settings. */
export interface EstimateOptions {
  algorithm: "linear" | "exponential";
  /** Seconds of samples the straight-line trend uses. */
  linearWindow: number;
  /** Seconds of samples the exponential fit uses. */
  exponentialWindow: number;
  /** Largest accepted time constant of the exponential fit, s; larger → linear. */
  maxTau: number;
  /** Distance to the goal in °C that counts as reached. */
  threshold: number;
}

/** A straight-line trend over a window. */
export interface Trend {
  /** °C/s (negative when falling). */
  rate: number;
  /** The fitted temperature at the newest sample. */
  now: number;
  /** The fitted temperature at the window's mean time (where the slope is the true rate). */
  mid: number;
  /** Variance of `rate` from the residual noise. */
  variance: number;
  /** Seconds between the window's first and newest sample. */
  span: number;
  /** Residual variance of one sample around the line (°C²). */
  noise: number;
  /** Variance of `now`, the fitted temperature at the newest sample. */
  nowVariance: number;
  /** Number of samples. */
  count: number;
}

/** Fewest samples and shortest span (s) for a trend; fewest samples and span for a fit. */
export const MIN_LINEAR = { samples: 3, span: 1 } as const;
export const MIN_EXPONENTIAL = { samples: 6, span: 5 } as const;

/** The samples within `seconds` of the newest one. */
export function windowOf(samples: readonly Sample[], seconds: number): Sample[] {
  const last = samples[samples.length - 1];
  if (!last) return [];
  return samples.filter((s) => s.t >= last.t - seconds);
}

/** Seconds between the first and the newest sample. */
export function spanOf(samples: readonly Sample[]): number {
  return samples.length < 2 ? 0 : samples[samples.length - 1]!.t - samples[0]!.t;
}

/** The least-squares trend of `samples` (all of them); null with too few or too short. */
export function trendOf(samples: readonly Sample[]): Trend | null {
  const span = spanOf(samples);
  if (samples.length < MIN_LINEAR.samples || span < MIN_LINEAR.span) return null;
  const tLast = samples[samples.length - 1]!.t;
  const xs = samples.map((s) => s.t - tLast), ys = samples.map((s) => s.actual);
  const line = fitLine(xs, ys);
  if (!line) return null;
  const n = xs.length, mean = xs.reduce((a, x) => a + x, 0) / n;
  let sxx = 0, sse = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mean) ** 2;
    sse += (ys[i]! - line.intercept - line.slope * xs[i]!) ** 2;
  }
  // The floor is the 0.1 °C resolution's own noise: a perfectly quiet sensor still steps.
  const noise = Math.max(sse / Math.max(1, n - 2), 0.1 ** 2 / 12);
  return {
    rate: line.slope,
    now: line.intercept,
    mid: line.intercept + line.slope * mean,
    variance: noise / sxx,
    span,
    noise,
    nowVariance: noise * (1 / n + mean * mean / sxx),
    count: n,
  };
}

/** The least-squares trend over the last `window` seconds. */
export function linearTrend(samples: readonly Sample[], window: number): Trend | null {
  return trendOf(windowOf(samples, window));
}

/**
 * The exponential algorithm's view of the current state for an asymptote `a` (oriented `x`, see
 * `profile.ts`): a weighted least-squares fit of ln(a − x) over the window gives the time constant
 * τ and the fitted `x` now. Null when the window is too small or τ exceeds `maxTau`.
 */
export function windowFit(
  xs: readonly Sample[],
  a: number,
  maxTau: number,
): { x: number; k: number } | null {
  if (xs.length < MIN_EXPONENTIAL.samples || spanOf(xs) < MIN_EXPONENTIAL.span) return null;
  const tLast = xs[xs.length - 1]!.t;
  const gaps = xs.map((s) => Math.max(a - s.actual, 0.05));
  // Weights gap² undo the log's stretching of noise near the asymptote.
  const line = fitLine(xs.map((s) => s.t - tLast), gaps.map(Math.log), gaps.map((g) => g * g));
  if (!line || !(line.slope < 0) || -1 / line.slope > maxTau) return null;
  return { x: a - Math.exp(line.intercept), k: -line.slope };
}
