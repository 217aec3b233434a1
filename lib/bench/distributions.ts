/**
 * The random draws of a workload, all from one seeded generator so a run can be repeated: request
 * lengths around a target (`--prompt-tokens-stddev`, `--gen-tokens-stddev`: normal, clipped at 1;
 * `--range-ratio R`: uniform in [target·(1−R), target·(1+R)] as vLLM's random dataset) and the
 * gaps between arrivals of an open loop (`--request-rate R --burstiness K`: gamma with shape K and
 * mean 1/R, so K = 1 is a Poisson process and the coefficient of variation is 1/√K).
 *
 * @module
 */
import { createRandom, type Random } from "../engine/mod.ts";

/** How a request length is drawn around its target (all zero: exactly the target). */
export interface LengthSpread {
  /** Standard deviation of a normal draw, in tokens; 0: none. */
  stddev: number;
  /** Half-width of a uniform draw as a fraction of the target (0 ≤ R < 1); 0: none. */
  range_ratio: number;
}

/** A uniform number in (0, 1): never 0, so a logarithm of it is finite. */
function open01(random: Random): number {
  let u = random.next();
  while (u === 0) u = random.next();
  return u;
}

/** A standard normal draw (Box–Muller, one of the pair). */
export function normalDraw(random: Random): number {
  const u = open01(random);
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * One length around `target`: uniform over the integers of [target·(1−R), target·(1+R)] with a
 * range ratio, else normal with the standard deviation (rounded, at least 1), else the target.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRandom } from "../engine/mod.ts";
 * import { drawLength } from "./distributions.ts";
 * assert.equal(drawLength(128, { stddev: 0, range_ratio: 0 }, createRandom(1)), 128);
 * const n = drawLength(100, { stddev: 0, range_ratio: 0.5 }, createRandom(1));
 * assert.ok(n >= 50 && n <= 150);
 * ```
 */
export function drawLength(target: number, spread: LengthSpread, random: Random): number {
  if (spread.range_ratio > 0) {
    const low = Math.max(1, Math.floor(target * (1 - spread.range_ratio)));
    const high = Math.max(low, Math.ceil(target * (1 + spread.range_ratio)));
    return low + Math.floor(random.next() * (high - low + 1));
  }
  if (spread.stddev > 0) {
    return Math.max(1, Math.round(target + spread.stddev * normalDraw(random)));
  }
  return target;
}

/** Whether a spread draws anything (else every request has the target length). */
export function spreads(spread: LengthSpread): boolean {
  return spread.stddev > 0 || spread.range_ratio > 0;
}

/**
 * A gamma draw of shape `k` and scale 1 (Marsaglia and Tsang's method; for k < 1 a draw of shape
 * k + 1 times U^(1/k)).
 */
export function gammaDraw(k: number, random: Random): number {
  if (k < 1) return gammaDraw(k + 1, random) * Math.pow(open01(random), 1 / k);
  const d = k - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normalDraw(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = open01(random);
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/**
 * The source of the gaps (seconds) between arrivals at `rate` per second with burstiness `k`:
 * gamma with shape k and scale 1/(k·rate), so the mean gap is 1/rate whatever k. K = 1 draws the
 * exponential gaps of a Poisson process (−ln(U) ÷ rate) from the same stream as before.
 */
export function arrivalGaps(rate: number, k: number, seed: number): () => number {
  const random = createRandom(seed);
  if (k === 1) return () => -Math.log(1 - random.next()) / rate;
  return () => gammaDraw(k, random) / (k * rate);
}

/** The first `n` gaps of {@linkcode arrivalGaps}. */
export function gammaGaps(rate: number, k: number, n: number, seed: number): number[] {
  const next = arrivalGaps(rate, k, seed);
  return Array.from({ length: n }, () => next());
}
