/**
 * ETA maths of one heater, pure: the observed rate (least-squares slope over `linear_window`), the
 * linear ETA, the exponential heating ETA (weighted least-squares fit of ln(target − T) over
 * `exponential_window`, τ capped at `exponential_max_tau`, linear fallback) and Newton cooling
 * (first-order decay towards a fitted ambient, same cap and fallback). "Reached" means within the
 * threshold of the goal, the point where the ETA display ends.
 *
 * @module
 */
import { fitExponential, fitLine } from "./fit.ts";

/** One temperature sample: time in seconds, actual temperature in °C. */
export interface Sample {
  t: number;
  actual: number;
}

/** What the estimators need from the settings. */
export interface EstimateOptions {
  algorithm: "linear" | "exponential";
  /** Seconds of samples the linear slope uses. */
  linearWindow: number;
  /** Seconds of samples the exponential fit uses. */
  exponentialWindow: number;
  /** Largest accepted time constant in seconds; larger → linear fallback. */
  maxTau: number;
  /** Distance to the goal in °C that counts as reached. */
  threshold: number;
}

/** An estimate: rate in °C/s (signed), ETA in seconds, the method that produced the ETA. */
export interface Estimate {
  /** Observed rate; null while there are too few samples. */
  rate: number | null;
  /** Seconds until within the threshold of the goal; null when it cannot be estimated. */
  eta: number | null;
  method: "linear" | "exponential" | null;
  /** The fitted time constant of an exponential estimate. */
  tau?: number;
}

/** Fewest samples and shortest span (s) for a slope; fewest samples and span for a fit. */
const MIN_LINEAR = { samples: 3, span: 1 };
const MIN_EXPONENTIAL = { samples: 6, span: 5 };

/** The samples within `seconds` of the newest one. */
export function windowOf(samples: readonly Sample[], seconds: number): Sample[] {
  const last = samples[samples.length - 1];
  if (!last) return [];
  return samples.filter((s) => s.t >= last.t - seconds);
}

function spanOf(samples: readonly Sample[]): number {
  return samples.length < 2 ? 0 : samples[samples.length - 1]!.t - samples[0]!.t;
}

/** The least-squares trend over the linear window: rate (°C/s) and the fitted temperature now. */
export function linearTrend(
  samples: readonly Sample[],
  window: number,
): { rate: number; now: number } | null {
  const w = windowOf(samples, window);
  if (w.length < MIN_LINEAR.samples || spanOf(w) < MIN_LINEAR.span) return null;
  const tLast = w[w.length - 1]!.t;
  const line = fitLine(w.map((s) => s.t - tLast), w.map((s) => s.actual));
  return line ? { rate: line.slope, now: line.intercept } : null;
}

function linearEta(distance: number, speed: number): number | null {
  if (distance <= 0) return 0;
  return speed > 0 ? distance / speed : null;
}

/** Exponential approach to `target`: τ and the fitted gap (target − T) now, or null. */
function heatingFit(samples: readonly Sample[], target: number, o: EstimateOptions) {
  const w = windowOf(samples, o.exponentialWindow).filter((s) => target - s.actual > 0);
  if (w.length < MIN_EXPONENTIAL.samples || spanOf(w) < MIN_EXPONENTIAL.span) return null;
  const tLast = w[w.length - 1]!.t;
  const gaps = w.map((s) => target - s.actual);
  // Weights gap² undo the log's stretching of noise near the target.
  const line = fitLine(w.map((s) => s.t - tLast), gaps.map(Math.log), gaps.map((g) => g * g));
  if (!line || !(line.slope < 0)) return null;
  const tau = -1 / line.slope;
  return tau <= o.maxTau ? { tau, gap: Math.exp(line.intercept) } : null;
}

/**
 * Estimates the time until a heater is within `threshold` of `target` while heating.
 *
 * @example Constant heating at 2 °C/s
 * ```ts
 * import { estimateHeating } from "./estimate.ts";
 * const samples = Array.from({ length: 21 }, (_, i) => ({ t: i / 2, actual: 20 + i }));
 * const e = estimateHeating(samples, 61, {
 *   algorithm: "linear", linearWindow: 10, exponentialWindow: 30, maxTau: 300, threshold: 1,
 * });
 * console.assert(Math.abs(e.eta! - 10) < 1e-9);
 * ```
 */
export function estimateHeating(
  samples: readonly Sample[],
  target: number,
  o: EstimateOptions,
): Estimate {
  const trend = linearTrend(samples, o.linearWindow);
  if (!trend) return { rate: null, eta: null, method: null };
  if (o.algorithm === "exponential") {
    const fit = heatingFit(samples, target, o);
    if (fit) {
      const eta = fit.gap <= o.threshold ? 0 : fit.tau * Math.log(fit.gap / o.threshold);
      return { rate: trend.rate, eta, method: "exponential", tau: fit.tau };
    }
  }
  const eta = linearEta(target - o.threshold - trend.now, trend.rate);
  return { rate: trend.rate, eta, method: eta === null ? null : "linear" };
}

/** Newton cooling towards a fitted ambient: τ, ambient and the fitted temperature now, or null. */
function coolingFit(samples: readonly Sample[], o: EstimateOptions) {
  const w = windowOf(samples, o.exponentialWindow);
  if (w.length < MIN_EXPONENTIAL.samples || spanOf(w) < MIN_EXPONENTIAL.span) return null;
  const tLast = w[w.length - 1]!.t;
  const fit = fitExponential(w.map((s) => s.t - tLast), w.map((s) => s.actual), 1, o.maxTau);
  if (!fit || !(fit.amplitude > 0)) return null;
  // Times are relative to the newest sample, so "now" is t = 0.
  const now = fit.asymptote + fit.amplitude * Math.exp(fit.t0 / fit.tau);
  return { tau: fit.tau, ambient: fit.asymptote, now };
}

/**
 * Estimates the time until a switched-off heater has cooled to within `threshold` of `goal`.
 * The rate is negative while cooling.
 */
export function estimateCooling(
  samples: readonly Sample[],
  goal: number,
  o: EstimateOptions,
): Estimate {
  const trend = linearTrend(samples, o.linearWindow);
  if (!trend) return { rate: null, eta: null, method: null };
  const reached = goal + o.threshold;
  if (o.algorithm === "exponential") {
    const fit = coolingFit(samples, o);
    if (fit && fit.ambient < reached) {
      const eta = fit.now <= reached
        ? 0
        : fit.tau * Math.log((fit.now - fit.ambient) / (reached - fit.ambient));
      return { rate: trend.rate, eta, method: "exponential", tau: fit.tau };
    }
  }
  const eta = linearEta(trend.now - reached, -trend.rate);
  return { rate: trend.rate, eta, method: eta === null ? null : "linear" };
}
