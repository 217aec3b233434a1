import assert from "node:assert/strict";
import { welchTest } from "../../../lib/reports/welch.ts";

const close = (actual: number, expected: number, tol = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${actual} is not within ${tol} of ${expected}`);

Deno.test("welchTest() matches the reference statistic, degrees of freedom and p-value", () => {
  const r = welchTest([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]);
  assert.ok(r);
  close(r.t, -1.8973665961010275, 1e-12);
  close(r.df, 5.882352941176471, 1e-12);
  close(r.p, 0.10753119493062728, 1e-9);
});

Deno.test("welchTest() needs two values per sample and handles samples without spread", () => {
  assert.equal(welchTest([1], [1, 2]), null);
  assert.equal(welchTest([3, 3, 3], [3, 3])!.p, 1);
  assert.equal(welchTest([3, 3, 3], [4, 4])!.p, 0);
});
