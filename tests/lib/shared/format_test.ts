import assert from "node:assert/strict";
import { dateTime, fixed, parallelSpeed, signedPercent } from "../../../lib/shared/format.ts";
import { deltaCell } from "../../../lib/reports/format.ts";

Deno.test("fixed() rounds to the digits asked and shows a missing number as –", () => {
  assert.deepEqual([fixed(4.25), fixed(4.256, 2), fixed(7, 0)], ["4.3", "4.26", "7"]);
  for (const missing of [null, undefined, NaN, Infinity, "4"]) assert.equal(fixed(missing), "–");
});

Deno.test("signedPercent() signs a change and shows one that rounds to zero as 0.0% on both sides", () => {
  assert.equal(signedPercent(4.2), "+4.2%");
  assert.equal(signedPercent(-4.25), "-4.3%");
  for (const zero of [0, -0, 0.04, -0.04]) assert.equal(signedPercent(zero), "0.0%");
  assert.equal(signedPercent(0.05), "+0.1%");
  assert.equal(signedPercent(null), "–");
});

Deno.test("the dashboard's and the reports' delta agree at zero", () => {
  const none = {
    previous_mean: 50,
    current_mean: 50,
    n_previous: 3,
    n_current: 3,
    delta_pct: 0,
    p_value: 0.9,
    significant: false,
  };
  assert.equal(deltaCell(none), "0.0%");
  assert.equal(deltaCell(none), signedPercent(0));
});

Deno.test("dateTime() shows an ISO time stamp to the minute", () => {
  assert.equal(dateTime("2026-05-01T12:34:56.789Z"), "2026-05-01 12:34");
  assert.equal(dateTime(undefined), "–");
});

Deno.test("parallelSpeed() shows the total speed with its streams only for a parallel round", () => {
  assert.equal(parallelSpeed(84.25, 2), "84.3 ×2");
  assert.equal(parallelSpeed(84.25, 1), "–");
  assert.equal(parallelSpeed(null, 4), "–");
});
