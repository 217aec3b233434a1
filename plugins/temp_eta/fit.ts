/**
 * The weighted least-squares straight line the ETA estimators are built on. Pure, no I/O.
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
