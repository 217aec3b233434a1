/**
 * The least-squares fits the ETA estimators are built on: a weighted straight line, and a
 * first-order approach to a known asymptote. Pure, no I/O.
 *
 * @module
 */

/** A fitted straight line `y = intercept + slope·x`. */
export interface Line {
  slope: number;
  intercept: number;
}

/**
 * Weighted ordinary least squares of `ys` on `xs` (weights default to 1). Returns null with fewer
 * than 2 points or no spread in x.
 */
export function fitLine(
  xs: readonly number[],
  ys: readonly number[],
  ws?: readonly number[],
): Line | null {
  const n = xs.length;
  if (n < 2 || ys.length !== n) return null;
  let sw = 0, sx = 0, sy = 0;
  for (let i = 0; i < n; i++) {
    const w = ws?.[i] ?? 1;
    sw += w;
    sx += w * xs[i]!;
    sy += w * ys[i]!;
  }
  if (!(sw > 0)) return null;
  const mx = sx / sw, my = sy / sw;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    const w = ws?.[i] ?? 1;
    sxx += w * (xs[i]! - mx) ** 2;
    sxy += w * (xs[i]! - mx) * (ys[i]! - my);
  }
  if (!(sxx > 1e-12)) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/** A first-order approach to a known asymptote `a`: `x(t) = a − gap·e^{−k·t}`. */
export interface ApproachFit {
  /** The gap `a − x` at t = 0 (the newest sample). */
  gap: number;
  /** Rate constant, 1/s. */
  k: number;
  /** Variances of `gap` and `k` and their covariance, from the residuals. */
  gapVariance: number;
  kVariance: number;
  covariance: number;
}

/** Bounds of the rate constant searched, 1/s (time constants 0.5 s … 2.8 h). */
const K_RANGE = { min: 1e-4, max: 2 } as const;
/** Golden-section steps over ln k: the bracket shrinks to 0.618^n, ~1e-4 of it. */
const SEARCH_STEPS = 20;

/**
 * Least squares of `x(t) = a − gap·e^{−k·t}` to the points (`ts` in seconds, the newest at 0,
 * older ones negative) with the asymptote `a` known. For each k the gap is linear (closed form),
 * so k is found by a golden-section search over ln k (the misfit has one minimum for data that
 * approach `a`); the variances come from the Gauss–Newton covariance at the optimum. Least squares
 * on the readings themselves: a fit of ln(a − x) would weigh the noise unevenly and bias the
 * result when the gap is a few tenths of a degree. Null with fewer than 3 points.
 */
export function fitApproach(
  ts: readonly number[],
  xs: readonly number[],
  a: number,
): ApproachFit | null {
  const n = ts.length;
  if (n < 3 || xs.length !== n) return null;
  const solve = (k: number) => {
    let see = 0, sge = 0;
    for (let i = 0; i < n; i++) {
      const e = Math.exp(-k * ts[i]!);
      see += e * e;
      sge += (a - xs[i]!) * e;
    }
    const gap = sge / see;
    let sse = 0;
    for (let i = 0; i < n; i++) sse += (a - xs[i]! - gap * Math.exp(-k * ts[i]!)) ** 2;
    return { gap, sse };
  };
  const phi = (Math.sqrt(5) - 1) / 2;
  let lo = Math.log(K_RANGE.min), hi = Math.log(K_RANGE.max);
  let c = hi - phi * (hi - lo), d = lo + phi * (hi - lo);
  let fc = solve(Math.exp(c)).sse, fd = solve(Math.exp(d)).sse;
  for (let step = 0; step < SEARCH_STEPS; step++) {
    if (fc <= fd) {
      hi = d, d = c, fd = fc;
      c = hi - phi * (hi - lo);
      fc = solve(Math.exp(c)).sse;
    } else {
      lo = c, c = d, fc = fd;
      d = lo + phi * (hi - lo);
      fd = solve(Math.exp(d)).sse;
    }
  }
  const k = Math.exp((lo + hi) / 2);
  const { gap, sse } = solve(k);
  // Jacobian columns of the model: ∂x/∂gap = −e^{−kt}, ∂x/∂k = gap·t·e^{−kt}.
  let jgg = 0, jgk = 0, jkk = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp(-k * ts[i]!), dg = -e, dk = gap * ts[i]! * e;
    jgg += dg * dg;
    jgk += dg * dk;
    jkk += dk * dk;
  }
  const det = jgg * jkk - jgk * jgk;
  if (!(det > 0) || !Number.isFinite(gap)) return null;
  const s2 = sse / Math.max(1, n - 2);
  return {
    gap,
    k,
    gapVariance: (s2 * jkk) / det,
    kVariance: (s2 * jgg) / det,
    covariance: (-s2 * jgk) / det,
  };
}
