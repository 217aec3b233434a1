/**
 * Descriptive statistics of a sample: mean, median, p95, min, max, sample standard deviation,
 * the 95% confidence interval of the mean (Student's t) and the coefficient of variation.
 *
 * The interval respects the metric's domain: times, speeds and counts cannot be negative, and a
 * t-interval of a few runs far apart (a slow first token among fast ones) reaches below zero
 * ("-1162–1412 ms"). Its lower end is then put at the domain's lower bound (0), which marks it:
 * a t-interval's own lower end is never exactly 0 for such a sample (see docs/decisions.md).
 *
 * @module
 */
import { tCritical } from "./student_t.ts";

/** Summary of one metric over the measured runs. */
export interface Summary {
  n: number;
  mean: number | null;
  median: number | null;
  p95: number | null;
  min: number | null;
  max: number | null;
  /** Sample standard deviation (divides by n − 1); null below two values. */
  std: number | null;
  ci_low: number | null;
  ci_high: number | null;
  /** std ÷ mean; null when undefined. */
  cv: number | null;
}

/** Linear-interpolated quantile (position (n − 1)·q) of sorted values. */
export function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Options of {@linkcode summarize}. */
export interface SummaryOptions {
  /**
   * The smallest value the metric can take (0 for times, speeds and counts): the interval's lower
   * end is never put below it. @default no bound
   */
  min?: number;
}

/** The domain of every stored per-run metric: none is negative. */
export const POSITIVE: SummaryOptions = { min: 0 };

/**
 * Summarises the finite numbers of `values` (nulls and NaN are left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { POSITIVE, summarize } from "./stats.ts";
 * // Three TTFTs, one slow: the t-interval would start at -1162 ms.
 * assert.ok(summarize([40, 45, 950]).ci_low! < 0);
 * assert.equal(summarize([40, 45, 950], POSITIVE).ci_low, 0);
 * ```
 */
export function summarize(
  values: readonly (number | null | undefined)[],
  options: SummaryOptions = {},
): Summary {
  const xs = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const n = xs.length;
  if (n === 0) {
    return {
      n,
      mean: null,
      median: null,
      p95: null,
      min: null,
      max: null,
      std: null,
      ci_low: null,
      ci_high: null,
      cv: null,
    };
  }
  const sorted = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const std = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : null;
  const half = std === null ? null : tCritical(n - 1) * std / Math.sqrt(n);
  return {
    n,
    mean,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    min: sorted[0]!,
    max: sorted[n - 1]!,
    std,
    ci_low: half === null ? null : Math.max(mean - half, options.min ?? -Infinity),
    ci_high: half === null ? null : mean + half,
    cv: std === null || mean === 0 ? null : std / mean,
  };
}

/** Flattens a summary into store columns `<metric>_<stat>`. */
export function summaryColumns(metric: string, s: Summary): Record<string, number | null> {
  return {
    [`${metric}_mean`]: s.mean,
    [`${metric}_median`]: s.median,
    [`${metric}_p95`]: s.p95,
    [`${metric}_min`]: s.min,
    [`${metric}_max`]: s.max,
    [`${metric}_std`]: s.std,
    [`${metric}_ci_low`]: s.ci_low,
    [`${metric}_ci_high`]: s.ci_high,
    [`${metric}_cv`]: s.cv,
  };
}
