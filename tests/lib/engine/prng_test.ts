import assert from "node:assert/strict";
import { createRandom } from "../../../lib/engine/prng.ts";

Deno.test("createRandom() repeats its stream for the same seed", () => {
  const a = createRandom(123);
  const b = createRandom(123);
  for (let i = 0; i < 100; i++) assert.equal(a.next(), b.next());
});

Deno.test("createRandom() gives numbers in [0, 1) with a plausible mean", () => {
  const r = createRandom(5);
  let sum = 0;
  for (let i = 0; i < 10_000; i++) {
    const x = r.next();
    assert.ok(x >= 0 && x < 1);
    sum += x;
  }
  assert.ok(Math.abs(sum / 10_000 - 0.5) < 0.02);
});

Deno.test("createRandom().fill() stays within the scale", () => {
  const out = new Float32Array(1000);
  createRandom(1).fill(out, 0.25);
  assert.ok(out.every((v) => v >= -0.25 && v <= 0.25));
  assert.ok(out.some((v) => v < 0) && out.some((v) => v > 0));
});
