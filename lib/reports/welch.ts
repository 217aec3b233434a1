/**
 * Welch's t-test on two independent samples with unequal variances (Student's t from
 * `lib/student_t.ts`).
 *
 * @module
 */
import { welchSummary } from "../student_t.ts";

/** Result of {@linkcode welchTest}. */
export interface WelchResult {
  /** t statistic of mean(a) − mean(b). */
  t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  df: number;
  /** Two-sided p-value. */
  p: number;
}

function meanVar(xs: readonly number[]): { mean: number; variance: number } {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1);
  return { mean, variance };
}

/**
 * Welch's two-sample t-test. Returns null when either sample has fewer than two values.
 * Two samples without any spread give p = 1 for equal means and p = 0 otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { welchTest } from "./welch.ts";
 * const r = welchTest([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])!;
 * assert.ok(Math.abs(r.p - 0.1075) < 1e-3);
 * ```
 */
export function welchTest(a: readonly number[], b: readonly number[]): WelchResult | null {
  if (a.length < 2 || b.length < 2) return null;
  const x = meanVar(a);
  const y = meanVar(b);
  return welchSummary(
    { mean: x.mean, sd: Math.sqrt(x.variance), n: a.length },
    { mean: y.mean, sd: Math.sqrt(y.variance), n: b.length },
  );
}
