/**
 * Whether a heater settles short of its goal, judged on minutes of bucket means (`buckets.ts`).
 * A heater too weak for its target (or in a draught) approaches its own asymptote like a
 * first-order system: the means of three consecutive blocks of `W` seconds, m0, m1, m2, rise by
 * Δ1 = m1 − m0 and then by Δ2 = m2 − m1 = q·Δ1 with q = e^{−W/τ}, so what is left to rise after
 * the last block is the geometric rest Δ2·q / (1 − q), and the asymptote is
 * A = m2 + Δ2·q / (1 − q). When even an upper bound of A (Δ2 larger and Δ1 smaller by two
 * standard deviations of a block difference) stays short of the goal, the heater is not getting
 * there: it settles short. A heater that no longer moves at all (Δ1 and Δ2 within their noise)
 * short of its goal settles short too. A heater arriving along a long tail has A at or beyond
 * its target and is left alone. Pure, in oriented `x` (the goal is above).
 *
 * @module
 */
import type { Sample } from "./estimate.ts";

/** Longest block, s (three blocks must fit in the buckets' memory). */
export const SETTLE_BLOCK = 200;
/** Shortest block, s: below it the blocks' means are too noisy to say. */
const MIN_BLOCK = 60;
/** Standard deviations of a block difference the bound allows for. */
const Z = 2;
/** Seconds the rest would take at the rate's upper bound before a heater counts as slow. */
export const SLOW_HORIZON = 300;
/** … and to overturn a verdict of `short` by speeding up again. */
const SURE_Z = 4;

/** The mean of the `xs` samples with `from ≤ t < to`, and their count. */
function blockMean(xs: readonly Sample[], from: number, to: number): { mean: number; n: number } {
  let sum = 0, n = 0;
  for (const s of xs) {
    if (s.t >= from && s.t < to) {
      sum += s.actual;
      n++;
    }
  }
  return { mean: n > 0 ? sum / n : NaN, n };
}

/** What the blocks say: settling short, arriving (sure it gets there), or not sure either way. */
export type SettleVerdict = "short" | "arriving" | "unsure";

/** The asymptote of three block means' differences (see the module), or null when undefined. */
function asymptote(m2: number, d1: number, d2: number): number | null {
  if (!(d1 > 0) || !(d2 < d1)) return null;
  const q = Math.max(0, d2) / d1;
  return m2 + (Math.max(0, d2) * q) / (1 - q);
}

/**
 * What the oriented bucket means `xs` (oldest first, their noise `noise` °C² per bucket) say
 * about reaching `goal`: `short` when even the upper bound of the asymptote is short of it,
 * `arriving` when its lower bound is beyond it (or the heater is there or still fast).
 */
export function settleVerdict(xs: readonly Sample[], goal: number, noise: number): SettleVerdict {
  const first = xs[0], last = xs[xs.length - 1];
  if (!first || !last) return "unsure";
  const block = Math.min(SETTLE_BLOCK, (last.t - first.t) / 3);
  if (block < MIN_BLOCK) return "unsure";
  const end = last.t + 1e-6;
  const b0 = blockMean(xs, end - 3 * block, end - 2 * block);
  const b1 = blockMean(xs, end - 2 * block, end - block);
  const b2 = blockMean(xs, end - block, end);
  if (b0.n < 3 || b1.n < 3 || b2.n < 3) return "unsure";
  if (b2.mean >= goal) return "arriving";
  const sd = Math.sqrt(noise * (1 / b0.n + 1 / b1.n) + noise * (1 / b1.n + 1 / b2.n)) / Math.SQRT2;
  const d1 = b1.mean - b0.mean, d2 = b2.mean - b1.mean;
  // Not slowing down beyond the noise: a heater still speeding or steady arrives.
  if (d2 - d1 >= SURE_Z * sd && d2 > SURE_Z * sd) return "arriving";
  const high = Math.abs(d1) <= Z * sd && Math.abs(d2) <= Z * sd
    // Not moving beyond the noise over two blocks: it settled where it is.
    ? b2.mean + d2 + Z * sd
    : asymptote(b2.mean, d1 - Z * sd, d2 + Z * sd);
  // Short only when also slow: at even the upper bound of its rate it would need more than
  // SLOW_HORIZON to get there (a bed whose plate settles while its mass still warms is not).
  const slow = (goal - b2.mean) / (Math.max(0, d2 + Z * sd) / block) > SLOW_HORIZON;
  if (high !== null && high < goal && slow) return "short";
  const low = asymptote(b2.mean, d1 + SURE_Z * sd, d2 - SURE_Z * sd);
  return low !== null && low >= goal ? "arriving" : "unsure";
}
