/**
 * Least-squares fits used by the ETA estimators: a weighted straight line, and a first-order
 * exponential with a free asymptote `y = a + b·e^(−(t − t0)/τ)` (variable projection: for a given
 * τ the model is linear in a and b, so τ alone is searched). Pure functions, no I/O.
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

/** A fitted first-order exponential `y = asymptote + amplitude·e^(−(t − t0)/tau)`. */
export interface ExponentialFit {
  asymptote: number;
  amplitude: number;
  tau: number;
  t0: number;
}

function projectAt(ts: readonly number[], ys: readonly number[], t0: number, tau: number) {
  const xs = ts.map((t) => Math.exp(-(t - t0) / tau));
  const line = fitLine(xs, ys);
  if (!line) return null;
  let sse = 0;
  for (let i = 0; i < ts.length; i++) sse += (ys[i]! - line.intercept - line.slope * xs[i]!) ** 2;
  return { asymptote: line.intercept, amplitude: line.slope, sse };
}

/**
 * Fits `y = a + b·e^(−(t − t0)/τ)` with τ searched in [tauMin, tauMax] (log grid, then golden
 * section). Returns null when the best τ sits on the upper bound (the curve shows too little
 * bend to place its asymptote) or the data cannot be fitted.
 */
export function fitExponential(
  ts: readonly number[],
  ys: readonly number[],
  tauMin: number,
  tauMax: number,
): ExponentialFit | null {
  if (ts.length < 4 || !(tauMax > tauMin) || !(tauMin > 0)) return null;
  const t0 = ts[0]!;
  const cost = (u: number) => projectAt(ts, ys, t0, Math.exp(u))?.sse ?? Infinity;
  const lo = Math.log(tauMin), hi = Math.log(tauMax), steps = 48;
  let best = 0, bestCost = Infinity;
  for (let i = 0; i <= steps; i++) {
    const c = cost(lo + ((hi - lo) * i) / steps);
    if (c < bestCost) [best, bestCost] = [i, c];
  }
  if (best === steps || !Number.isFinite(bestCost)) return null;
  let a = lo + ((hi - lo) * Math.max(0, best - 1)) / steps;
  let b = lo + ((hi - lo) * (best + 1)) / steps;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const c = b - g * (b - a), d = a + g * (b - a);
    if (cost(c) < cost(d)) b = d;
    else a = c;
  }
  const tau = Math.exp((a + b) / 2);
  const fit = projectAt(ts, ys, t0, tau);
  return fit ? { asymptote: fit.asymptote, amplitude: fit.amplitude, tau, t0 } : null;
}
