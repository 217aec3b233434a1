import assert from "node:assert/strict";
import { incompleteBeta, logGamma, tTwoSidedP, welchTest } from "../../../lib/reports/welch.ts";

const close = (actual: number, expected: number, tol = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${actual} is not within ${tol} of ${expected}`);

Deno.test("logGamma() matches factorials and Γ(1/2) = √π", () => {
  close(logGamma(1), 0);
  close(logGamma(5), Math.log(24));
  close(logGamma(0.5), Math.log(Math.sqrt(Math.PI)));
  close(logGamma(10.5), 13.940625219403763, 1e-9);
});

Deno.test("incompleteBeta() matches closed forms and reference values", () => {
  close(incompleteBeta(0.5, 2, 3), 0.6875, 1e-12);
  close(incompleteBeta(0.3, 4, 1), 0.3 ** 4, 1e-12);
  close(incompleteBeta(0.3, 1, 3), 1 - 0.7 ** 3, 1e-12);
  close(incompleteBeta(0.3, 2.5, 4), 0.3521975859067672, 1e-10);
  close(incompleteBeta(0.9, 0.5, 0.5), 2 / Math.PI * Math.asin(Math.sqrt(0.9)), 1e-10);
  assert.equal(incompleteBeta(0, 2, 3), 0);
  assert.equal(incompleteBeta(1, 2, 3), 1);
});

Deno.test("tTwoSidedP() gives 0.05 at the tabulated 97.5% quantiles", () => {
  close(tTwoSidedP(12.706, 1), 0.05, 1e-4);
  close(tTwoSidedP(2.228, 10), 0.05, 1e-4);
  close(tTwoSidedP(2.0, 3), 0.13932596855884305, 1e-10);
  close(tTwoSidedP(0, 7), 1, 1e-12);
});

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
