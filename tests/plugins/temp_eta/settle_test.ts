import assert from "node:assert/strict";
import { settleVerdict } from "../../../plugins/temp_eta/settle.ts";
import type { Sample } from "../../../plugins/temp_eta/estimate.ts";
import { gaussian } from "./heaters.ts";

/** 5 s bucket means of a first-order approach to `final` (τ, from `start`), with noise `sd`. */
function buckets(final: number, tau: number, from: number, to: number, sd = 0, seed = 1): Sample[] {
  const n = gaussian(seed);
  const out: Sample[] = [];
  for (let t = from; t <= to; t += 5) {
    out.push({ t, actual: final - (final - 20) * Math.exp(-t / tau) + sd * n() });
  }
  return out;
}

const NOISE = 0.3 ** 2 / 5;

Deno.test("settleVerdict() says 'short' for a heater whose asymptote is below the goal", () => {
  // Heading for 57 °C (τ 333 s), goal 59 °C: its curve says so long before it gets there.
  assert.equal(settleVerdict(buckets(57, 333, 0, 1600), 59, NOISE), "short");
  // 58.5 °C, 0.5 °C short of the goal: while it still bends, and once it no longer moves.
  assert.equal(settleVerdict(buckets(58.5, 333, 0, 1200), 59, NOISE), "short");
  assert.equal(settleVerdict(buckets(58.5, 333, 0, 3000), 59, NOISE), "short");
  // With the readings' noise the bound widens, yet 3 °C short is plain after 1600 s.
  assert.equal(settleVerdict(buckets(57, 333, 0, 1600, 0.13, 7), 59, NOISE), "short");
});

Deno.test("settleVerdict() says 'arriving' for a heater heading beyond its goal", () => {
  // Full power towards 166 °C, goal 100 °C.
  assert.equal(settleVerdict(buckets(166, 333, 0, 300), 100, NOISE), "arriving");
  // A slow first-order approach to 62 °C, within 3 °C of it: its asymptote is beyond 59 °C.
  assert.equal(settleVerdict(buckets(62, 300, 0, 900), 59, NOISE), "arriving");
});

Deno.test("settleVerdict() is unsure with too little history or a fast heater still far out", () => {
  assert.equal(settleVerdict(buckets(57, 333, 0, 150), 59, NOISE), "unsure");
  assert.equal(settleVerdict([], 59, NOISE), "unsure");
  // Short of the goal but still fast: 300 s at its rate would get it there — not yet 'short'.
  assert.notEqual(settleVerdict(buckets(57, 60, 0, 200, 0.13), 59, NOISE), "short");
});

Deno.test("settleVerdict() calls a heater that does not move at all short of its goal 'short'", () => {
  const flat = Array.from({ length: 120 }, (_, i) => ({ t: 5 * i, actual: 57 }));
  assert.equal(settleVerdict(flat, 59, NOISE), "short");
  const there = Array.from({ length: 120 }, (_, i) => ({ t: 5 * i, actual: 59.2 }));
  assert.equal(settleVerdict(there, 59, NOISE), "arriving");
});
