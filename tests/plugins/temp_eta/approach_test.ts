import assert from "node:assert/strict";
import {
  approachEta,
  BRAKING_BAND,
  BRAKING_SLOWDOWN,
  etaAlong,
  inBrakingBand,
} from "../../../plugins/temp_eta/approach.ts";
import { RateProfile } from "../../../plugins/temp_eta/profile.ts";

const HEAT = { target: 210, goal: 209, heating: true };
const near = (a: number, b: number, eps: number) => Math.abs(a - b) <= eps;

Deno.test("etaAlong() of a first-order approach to the target is τ·ln(gap / threshold)", () => {
  // The braking band changes nothing for a curve that already brakes into the target.
  const eta = etaAlong(100, 210, 1 / 40, HEAT);
  assert.ok(near(eta, 40 * Math.log(110), 1e-9), `eta ${eta}`);
  assert.ok(near(etaAlong(205, 210, 1 / 40, HEAT), 40 * Math.log(5), 1e-9));
  assert.equal(etaAlong(209.5, 210, 1 / 40, HEAT), 0);
  assert.equal(etaAlong(100, 210, 0, HEAT), Infinity);
});

Deno.test("etaAlong() heading above the target brakes over the last band, a little slower", () => {
  // Full power towards 400 °C (k = 1/120) until 200 °C, then braking from the rate there.
  const k = 1 / 120, edge = 210 - BRAKING_BAND;
  const free = 120 * Math.log((400 - 100) / (400 - edge));
  const brake = BRAKING_SLOWDOWN * (BRAKING_BAND / (k * (400 - edge))) * Math.log(BRAKING_BAND);
  assert.ok(near(etaAlong(100, 400, k, HEAT), free + brake, 1e-9));
});

Deno.test("etaAlong() cools along Newton's law to the cooling target, no braking", () => {
  // Oriented: x = −T. From 150 °C towards a 25 °C room, τ 200 s, reached at 51 °C.
  const eta = etaAlong(-150, -25, 1 / 200, { target: -50, goal: -51, heating: false });
  assert.ok(near(eta, 200 * Math.log((150 - 25) / (51 - 25)), 1e-9), `eta ${eta}`);
  assert.equal(etaAlong(-150, -60, 1 / 200, { target: -50, goal: -51, heating: false }), Infinity);
});

Deno.test("approachEta() finds the target as asymptote on first-order data", () => {
  const p = new RateProfile();
  for (let i = 0; i < 8; i++) {
    const x = 60 + 10 * i;
    p.add({ t: 5 * i, x, rate: (210 - x) / 40, variance: 4e-4 }, 100);
  }
  const eta = approachEta(p, { x: 140, start: 22, ...HEAT })!;
  assert.ok(near(eta, 40 * Math.log(70), 0.5), `eta ${eta} vs ${40 * Math.log(70)}`);
});

Deno.test("approachEta() finds a full-power asymptote when the rate barely falls", () => {
  const p = new RateProfile();
  for (let i = 0; i < 8; i++) {
    const x = 60 + 10 * i;
    p.add({ t: 5 * i, x, rate: (400 - x) / 120, variance: 4e-4 }, 100);
  }
  const eta = approachEta(p, { x: 140, start: 22, ...HEAT })!;
  const expected = etaAlong(140, 400, 1 / 120, HEAT);
  assert.ok(Math.abs(eta - expected) / expected < 0.05, `eta ${eta} vs ${expected}`);
  assert.ok(eta < 40 * Math.log(70) / 2, "far shorter than a first-order approach");
});

Deno.test("approachEta() has nothing to say without rate points", () => {
  assert.equal(approachEta(new RateProfile(), { x: 140, start: 22, ...HEAT }), null);
});

Deno.test("inBrakingBand() is the last 10 °C (at least two thresholds) before a heating target", () => {
  const at = (x: number, goal = 209) => ({ x, start: 22, target: 210, goal, heating: true });
  assert.equal(inBrakingBand(at(199.9)), false);
  assert.equal(inBrakingBand(at(200)), true);
  assert.equal(inBrakingBand(at(189, 202)), false);
  assert.equal(inBrakingBand(at(195, 202)), true, "threshold 8 °C: a 16 °C band");
  // Cooling has no controller braking into its goal.
  assert.equal(
    inBrakingBand({ x: -51.5, start: -150, target: -50, goal: -51, heating: false }),
    false,
  );
});
