import assert from "node:assert/strict";
import { incompleteBeta, logGamma, tCritical, tTwoSidedP } from "../../lib/student_t.ts";

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

Deno.test("tCritical() is the 97.5 % quantile: the printed table's values and the normal limit", () => {
  // Student's t table, two-sided 95 %, 3 decimals.
  const table: [number, number][] = [
    [1, 12.706],
    [2, 4.303],
    [3, 3.182],
    [5, 2.571],
    [10, 2.228],
    [20, 2.086],
    [30, 2.042],
    [60, 2.0],
    [120, 1.98],
  ];
  for (const [df, t] of table) close(tCritical(df), t, 5e-4);
  close(tCritical(1), 12.706204736, 1e-6);
  close(tTwoSidedP(tCritical(7), 7), 0.05, 1e-9);
  close(tCritical(1e6), 1.959963985, 1e-5);
  assert.ok(tCritical(45) < tCritical(30) && tCritical(45) > tCritical(60));
  assert.ok(Number.isNaN(tCritical(0)) && Number.isNaN(tCritical(-1)));
});
