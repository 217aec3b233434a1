/**
 * Welch's t-test on two independent samples with unequal variances, and the numerics it needs:
 * the log-gamma function, the regularized incomplete beta function and Student's t distribution.
 *
 * @module
 */

const LANCZOS = [
  676.5203681218851,
  -1259.1392167224028,
  771.32342877765313,
  -176.61502916214059,
  12.507343278686905,
  -0.13857109526572012,
  9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** Natural logarithm of the gamma function for x > 0 (Lanczos approximation, g = 7). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = 0.99999999999980993;
  for (let i = 0; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i + 1);
  const t = z + LANCZOS.length - 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta function (modified Lentz method). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - (a + b) * x / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    const even = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + even * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + even / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    const odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + odd / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/**
 * The regularized incomplete beta function I_x(a, b) for 0 ≤ x ≤ 1 and a, b > 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { incompleteBeta } from "./welch.ts";
 * assert.ok(Math.abs(incompleteBeta(0.5, 2, 3) - 0.6875) < 1e-12);
 * ```
 */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0) || Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x),
  );
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return front * betaFraction(x, a, b) / a;
  return 1 - front * betaFraction(1 - x, b, a) / b;
}

/** Two-sided p-value of Student's t statistic `t` with `df` (> 0, may be fractional) degrees of freedom. */
export function tTwoSidedP(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

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
  const va = x.variance / a.length;
  const vb = y.variance / b.length;
  const se2 = va + vb;
  if (se2 === 0) {
    const same = x.mean === y.mean;
    return {
      t: same ? 0 : Math.sign(x.mean - y.mean) * Infinity,
      df: a.length + b.length - 2,
      p: same ? 1 : 0,
    };
  }
  const t = (x.mean - y.mean) / Math.sqrt(se2);
  const df = se2 * se2 / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
  return { t, df, p: tTwoSidedP(t, df) };
}
