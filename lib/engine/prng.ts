/**
 * A small seeded pseudo-random generator, so generated model weights are the same on every machine.
 * Not for cryptography.
 *
 * @module
 */

/** A source of uniform numbers in [0, 1). */
export interface Random {
  /** The next number in [0, 1). */
  next(): number;
  /** Fills `out` with uniform numbers in [-scale, scale). */
  fill(out: Float32Array, scale: number): void;
}

/**
 * Creates a generator from a 32-bit seed. It mixes a Weyl sequence (step 0x9e3779b9) through a
 * multiply-xorshift finaliser, so nearby seeds give unrelated streams.
 *
 * @param seed any integer; only its low 32 bits count
 * @returns a deterministic generator
 * @example Same seed, same stream
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRandom } from "./prng.ts";
 * assert.equal(createRandom(7).next(), createRandom(7).next());
 * ```
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const nextU32 = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  return {
    next: () => nextU32() / 0x1_0000_0000,
    fill(out, scale) {
      const k = (2 * scale) / 0x1_0000_0000;
      for (let i = 0; i < out.length; i++) out[i] = nextU32() * k - scale;
    },
  };
}
