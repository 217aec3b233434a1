import assert from "node:assert/strict";
import {
  AMBIENT_C,
  HEATERS,
  stepHeater,
  timeToReach,
} from "../../../../lib/printer/virtual/thermal.ts";

Deno.test("stepHeater() follows the exact first-order curve toward the target", () => {
  const p = { tau: 50, maxTemp: 300 };
  const after = stepHeater({ actual: 20, target: 220 }, 50, p);
  assert.ok(Math.abs(after.actual - (20 + 200 * (1 - Math.exp(-1)))) < 1e-9);
  const split = stepHeater(stepHeater({ actual: 20, target: 220 }, 25, p), 25, p);
  assert.ok(Math.abs(split.actual - after.actual) < 1e-9, "steps compose");
});

Deno.test("stepHeater() cools toward ambient when off and clamps the target to the maximum", () => {
  const cool = stepHeater({ actual: 200, target: 0 }, 1e6, HEATERS.tool0!);
  assert.ok(Math.abs(cool.actual - AMBIENT_C) < 1e-6);
  const hot = stepHeater({ actual: 20, target: 500 }, 1e6, { tau: 10, maxTemp: 100 });
  assert.ok(Math.abs(hot.actual - 100) < 1e-6);
  assert.equal(stepHeater({ actual: 30, target: 60 }, -5, HEATERS.bed!).actual, 30);
});

Deno.test("timeToReach() matches the model and reports unreachable targets", () => {
  const p = { tau: 40, maxTemp: 300 };
  const t = timeToReach(22, 200, p, 0.5);
  const at = stepHeater({ actual: 22, target: 200 }, t, p).actual;
  assert.ok(Math.abs(200 - at - 0.5) < 1e-6);
  assert.equal(timeToReach(22, 400, p), Infinity);
  assert.equal(timeToReach(200, 200, p), 0);
});
