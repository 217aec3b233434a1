/**
 * Downsampling one line of a chart: the points kept when a line holds more than a chart should
 * draw, chosen so that its ends and its extremes survive (plain striding loses them).
 *
 * @module
 */

/**
 * The positions kept of a line of `ys.length` points when it holds more than `max`: the line cut
 * into ⌊max / 4⌋ equal runs, each giving its first, last, smallest and largest value (nulls
 * are neither), in line order; every position when the line is short enough.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { downsampleLine } from "./downsample.ts";
 * assert.deepEqual(downsampleLine([5, 1, 9, 2, 3, 8, 7, 6], 4), [0, 1, 2, 7]);
 * assert.deepEqual(downsampleLine([1, 2], 4), [0, 1]);
 * ```
 */
export function downsampleLine(ys: readonly (number | null)[], max: number): number[] {
  const n = ys.length;
  if (n <= max) return ys.map((_, i) => i);
  const runs = Math.max(1, Math.floor(max / 4));
  const kept: number[] = [];
  for (let b = 0; b < runs; b++) {
    const start = Math.floor(b * n / runs);
    const end = Math.floor((b + 1) * n / runs) - 1;
    let lo = -1;
    let hi = -1;
    for (let i = start; i <= end; i++) {
      const y = ys[i];
      if (y === null || y === undefined) continue;
      if (lo < 0 || y < ys[lo]!) lo = i;
      if (hi < 0 || y > ys[hi]!) hi = i;
    }
    kept.push(...new Set([start, lo, hi, end].filter((i) => i >= 0).sort((a, b) => a - b)));
  }
  return kept;
}
