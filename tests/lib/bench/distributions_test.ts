import assert from "node:assert/strict";
import { arrivalGaps, drawLength, gammaGaps, spreads } from "../../../lib/bench/distributions.ts";
import { poissonGaps } from "../../../lib/bench/load_curve.ts";
import { createRandom } from "../../../lib/engine/mod.ts";

function moments(xs: number[]): { mean: number; std: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return { mean, std: Math.sqrt(variance) };
}

const draws = (n: number, f: () => number) => Array.from({ length: n }, f);

Deno.test("a normal length spread has the target as mean and the stddev as spread", () => {
  const random = createRandom(7);
  const xs = draws(20_000, () => drawLength(500, { stddev: 50, range_ratio: 0 }, random));
  const { mean, std } = moments(xs);
  assert.ok(Math.abs(mean - 500) < 2, `mean ${mean}`);
  assert.ok(Math.abs(std - 50) < 2, `std ${std}`);
  assert.ok(xs.every(Number.isInteger));
});

Deno.test("a normal length spread is clipped at 1 token", () => {
  const random = createRandom(3);
  const xs = draws(5_000, () => drawLength(5, { stddev: 20, range_ratio: 0 }, random));
  assert.equal(Math.min(...xs), 1);
  assert.ok(xs.filter((x) => x === 1).length > 1_000, "many draws below 1 are clipped");
});

Deno.test("a range ratio draws uniformly within target·(1±R)", () => {
  const random = createRandom(11);
  const xs = draws(20_000, () => drawLength(1000, { stddev: 0, range_ratio: 0.5 }, random));
  const { mean, std } = moments(xs);
  assert.equal(Math.min(...xs) >= 500 && Math.max(...xs) <= 1500, true);
  assert.ok(Math.min(...xs) < 510 && Math.max(...xs) > 1490, "both ends are reached");
  assert.ok(Math.abs(mean - 1000) < 6, `mean ${mean}`);
  // A uniform over [a, b] has the standard deviation (b − a) ÷ √12.
  assert.ok(Math.abs(std - 1000 / Math.sqrt(12)) < 5, `std ${std}`);
});

Deno.test("no spread gives the target length every time", () => {
  const random = createRandom(1);
  assert.equal(spreads({ stddev: 0, range_ratio: 0 }), false);
  assert.deepEqual(draws(5, () => drawLength(64, { stddev: 0, range_ratio: 0 }, random)), [
    64,
    64,
    64,
    64,
    64,
  ]);
});

Deno.test("the same seed draws the same lengths", () => {
  const a = createRandom(5);
  const b = createRandom(5);
  const spread = { stddev: 30, range_ratio: 0 };
  assert.deepEqual(
    draws(50, () => drawLength(200, spread, a)),
    draws(50, () => drawLength(200, spread, b)),
  );
});

for (const k of [0.5, 1, 2, 4]) {
  Deno.test(`gamma arrivals of burstiness ${k} have mean 1/rate and CV 1/√${k}`, () => {
    const gaps = gammaGaps(4, k, 40_000, 9);
    const { mean, std } = moments(gaps);
    assert.ok(Math.abs(mean - 0.25) < 0.25 * 0.03, `mean ${mean}`);
    const cv = std / mean;
    assert.ok(Math.abs(cv - 1 / Math.sqrt(k)) < 0.04, `CV ${cv} for K ${k}`);
    assert.ok(gaps.every((g) => g > 0 && Number.isFinite(g)));
  });
}

Deno.test("burstiness 1 draws the same Poisson arrivals as before", () => {
  assert.deepEqual(gammaGaps(2, 1, 100, 42), poissonGaps(2, 100, 42));
  const next = arrivalGaps(3, 2, 8);
  assert.deepEqual([next(), next(), next()], gammaGaps(3, 2, 3, 8));
});
