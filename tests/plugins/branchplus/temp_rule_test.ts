import assert from "node:assert/strict";
import { nextLatch, sensorReading, tempOpinion } from "../../../plugins/branchplus/temp_rule.ts";

Deno.test("nextLatch() activates exactly at the threshold and not below it", () => {
  assert.equal(nextLatch(40, 2, 39.9, false), false);
  assert.equal(nextLatch(40, 2, 40, false), true);
  assert.equal(nextLatch(40, 2, 41, false), true);
});

Deno.test("nextLatch() stays active above threshold minus hysteresis and releases at it", () => {
  assert.equal(nextLatch(40, 2, 38.5, true), true);
  assert.equal(nextLatch(40, 2, 38.01, true), true);
  assert.equal(nextLatch(40, 2, 38, true), false);
  assert.equal(nextLatch(40, 2, 30, true), false);
});

Deno.test("nextLatch() with zero hysteresis releases just below the threshold", () => {
  assert.equal(nextLatch(40, 0, 40, true), false);
  assert.equal(nextLatch(40, 0, 40.1, true), true);
});

Deno.test("nextLatch() keeps the previous latch when the reading is missing", () => {
  assert.equal(nextLatch(40, 2, undefined, true), true);
  assert.equal(nextLatch(40, 2, undefined, false), false);
});

Deno.test("sensorReading() reads bed, the first tool and the chamber", () => {
  const temps = {
    bed: { actual: 60, target: 60 },
    tool0: { actual: 200, target: 210 },
    tool1: { actual: 999, target: null },
    chamber: { actual: 35, target: null },
  };
  assert.equal(sensorReading("bed", temps), 60);
  assert.equal(sensorReading("tool", temps), 200);
  assert.equal(sensorReading("chamber", temps), 35);
  assert.equal(sensorReading("chamber", { bed: temps.bed }), undefined);
});

Deno.test("tempOpinion() gives the above action only while enabled and active", () => {
  const rule = { enabled: true, sensor: "bed" as const, threshold: 40, above: "off" as const };
  assert.equal(tempOpinion(rule, true), false);
  assert.equal(tempOpinion({ ...rule, above: "on" }, true), true);
  assert.equal(tempOpinion(rule, false), undefined);
  assert.equal(tempOpinion({ ...rule, enabled: false }, true), undefined);
});
