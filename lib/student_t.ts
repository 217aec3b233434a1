/**
 * Student's t distribution, computed (no table): the log-gamma function, the regularized
 * incomplete beta function, the two-sided p-value of a t statistic and the 97.5 % quantile of a
 * 95 % interval. The benchmark's confidence intervals (`lib/stats.ts`) and the reports'
 * Welch tests (`lib/reports/welch.ts`) both use it.
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
 * import { incompleteBeta } from "./student_t.ts";
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

/** Quantiles already found, by degrees of freedom. */
const CRITICAL = new Map<number, number>();

/**
 * The t quantile of a 95 % two-sided interval (the 97.5 % quantile) for `df` (> 0) degrees of
 * freedom: the t whose two-sided p-value is 0.05, found by bisection to 1e-9.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tCritical } from "./student_t.ts";
 * assert.equal(tCritical(10).toFixed(3), "2.228");
 * assert.ok(Number.isNaN(tCritical(0)));
 * ```
 */
export function tCritical(df: number): number {
  if (!(df > 0) || !Number.isFinite(df)) return Number.NaN;
  const known = CRITICAL.get(df);
  if (known !== undefined) return known;
  // 1.959963... (the normal quantile) is the least value for any df; 12.706... at df = 1.
  let lo = 1.95;
  let hi = 2;
  while (tTwoSidedP(hi, df) > 0.05) hi *= 2;
  while (hi - lo > 1e-9) {
    const mid = (lo + hi) / 2;
    if (tTwoSidedP(mid, df) > 0.05) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  CRITICAL.set(df, t);
  return t;
}

/** A sample as its summary: mean, standard deviation and size. */
export interface SampleSummary {
  mean: number;
  sd: number;
  n: number;
}

/**
 * A sample's summary from stored columns (a result's mean, standard deviation and run count);
 * null unless all three are numbers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sampleSummary } from "./student_t.ts";
 * assert.deepEqual(sampleSummary(42, 0.5, 5), { mean: 42, sd: 0.5, n: 5 });
 * assert.equal(sampleSummary(42, null, 5), null);
 * ```
 */
export function sampleSummary(mean: unknown, sd: unknown, n: unknown): SampleSummary | null {
  return typeof mean === "number" && typeof sd === "number" && typeof n === "number"
    ? { mean, sd, n }
    : null;
}

/**
 * Welch's t-test from two samples' summaries (mean, sample standard deviation, size): the
 * two-sided p-value of mean(a) − mean(b), and t. Null when either has fewer than two values.
 * Two samples without spread give p = 1 for equal means and p = 0 otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { welchSummary } from "./student_t.ts";
 * // The samples [1..5] and [2, 4, 6, 8, 10]: means 3 and 6, sd √2.5 and √10.
 * const r = welchSummary({ mean: 3, sd: Math.sqrt(2.5), n: 5 }, { mean: 6, sd: Math.sqrt(10), n: 5 })!;
 * assert.ok(Math.abs(r.p - 0.1075) < 1e-3);
 * ```
 */
export function welchSummary(
  a: SampleSummary,
  b: SampleSummary,
): { t: number; df: number; p: number } | null {
  if (a.n < 2 || b.n < 2) return null;
  const va = a.sd * a.sd / a.n;
  const vb = b.sd * b.sd / b.n;
  const se2 = va + vb;
  if (se2 === 0) {
    const same = a.mean === b.mean;
    return {
      t: same ? 0 : Math.sign(a.mean - b.mean) * Infinity,
      df: a.n + b.n - 2,
      p: same ? 1 : 0,
    };
  }
  const t = (a.mean - b.mean) / Math.sqrt(se2);
  const df = se2 * se2 / (va * va / (a.n - 1) + vb * vb / (b.n - 1));
  return { t, df, p: tTwoSidedP(t, df) };
}
