import assert from "node:assert/strict";
import { niceTicks, tickText } from "../../../lib/reports/ticks.ts";

Deno.test("niceTicks() covers the data with round steps of 1, 2 or 5 × 10ⁿ", () => {
  assert.deepEqual(niceTicks(0, 96.4), [0, 20, 40, 60, 80, 100]);
  assert.deepEqual(niceTicks(0, 7.3), [0, 2, 4, 6, 8]);
  assert.deepEqual(niceTicks(0.12, 0.43), [0.1, 0.2, 0.3, 0.4, 0.5]);
  assert.deepEqual(niceTicks(-3, 3), [-4, -2, 0, 2, 4]);
  assert.deepEqual(niceTicks(5, 5), [5, 5.1, 5.2, 5.3, 5.4, 5.5]);
  assert.deepEqual(niceTicks(0, 0), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(NaN, 1), [0, 1]);
});

Deno.test("tickText() shows as many decimals as the step needs", () => {
  assert.equal(tickText(40, 20), "40");
  assert.equal(tickText(0.3, 0.1), "0.3");
  assert.equal(tickText(0.25, 0.05), "0.25");
});
