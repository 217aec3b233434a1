import assert from "node:assert/strict";
import { linearTrend, trendOf, windowFit, windowOf } from "../../../plugins/temp_eta/estimate.ts";
import { fitLine } from "../../../plugins/temp_eta/fit.ts";
import { curve, gaussian } from "./heaters.ts";

const near = (a: number, b: number, eps: number) => Math.abs(a - b) <= eps;

Deno.test("fitLine() recovers slope and intercept of a straight line", () => {
  const line = fitLine([0, 1, 2, 3], [1, 3, 5, 7]);
  assert.ok(line);
  assert.ok(near(line.slope, 2, 1e-12) && near(line.intercept, 1, 1e-12));
  assert.equal(fitLine([1, 1, 1], [1, 2, 3]), null);
  assert.equal(fitLine([1], [1]), null);
});

Deno.test("windowOf() keeps the samples within the window of the newest one", () => {
  const samples = curve(20, 1, (t) => t);
  assert.deepEqual(windowOf(samples, 5).map((s) => s.t), [15, 16, 17, 18, 19, 20]);
  assert.deepEqual(windowOf([], 5), []);
});

Deno.test("linearTrend() needs three samples over at least one second", () => {
  assert.equal(linearTrend([{ t: 0, actual: 1 }, { t: 0.5, actual: 2 }], 10), null);
  assert.equal(linearTrend(curve(0.8, 0.2, (t) => t), 10), null);
  const trend = linearTrend(curve(2, 0.5, (t) => 3 * t), 10);
  assert.ok(trend && near(trend.rate, 3, 1e-9) && near(trend.now, 6, 1e-9));
  assert.ok(near(trend.mid, 3, 1e-9) && near(trend.span, 2, 1e-9));
});

Deno.test("trendOf() measures the rate at the window's middle, where a curve's slope is exact", () => {
  // A parabola's least-squares slope over a symmetric window equals its derivative at the middle.
  const samples = curve(10, 0.5, (t) => 20 + 4 * t - 0.1 * t * t);
  const trend = trendOf(samples)!;
  assert.ok(near(trend.rate, 4 - 0.2 * 5, 1e-9), `rate ${trend.rate}`);
  // The line passes through the centroid: `mid` is the mean temperature.
  const mean = samples.reduce((a, s) => a + s.actual, 0) / samples.length;
  assert.ok(near(trend.mid, mean, 1e-9), `mid ${trend.mid} mean ${mean}`);
});

Deno.test("trendOf() reports the rate's noise, floored at the sensor's 0.1 °C steps", () => {
  const n = gaussian(3);
  const noisy = trendOf(curve(10, 0.5, (t) => 100 + t + 0.3 * n()))!;
  // σ 0.3 over 21 samples in 10 s: the slope's standard error is about 0.02 °C/s.
  assert.ok(Math.sqrt(noisy.variance) > 0.01 && Math.sqrt(noisy.variance) < 0.04);
  assert.ok(near(noisy.rate, 1, 0.08), `rate ${noisy.rate}`);
  const exact = trendOf(curve(10, 0.5, (t) => 100 + t))!;
  assert.ok(exact.variance > 0, "a perfect line still has the quantisation floor");
});

Deno.test("windowFit() gives the time constant and the temperature now for an asymptote", () => {
  // 200 − 178·e^(−t/40) sampled for 30 s: for the true asymptote, τ = 40 and x(30) exactly.
  const samples = curve(30, 0.5, (t) => 200 - 178 * Math.exp(-t / 40));
  const fit = windowFit(samples, 200, 300)!;
  assert.ok(near(1 / fit.k, 40, 1e-6), `tau ${1 / fit.k}`);
  assert.ok(near(fit.x, 200 - 178 * Math.exp(-30 / 40), 1e-6));
  assert.equal(windowFit(samples, 200, 30), null, "τ above the cap");
  assert.equal(windowFit(samples.slice(0, 5), 200, 300), null, "fewer than six samples");
  assert.equal(windowFit(curve(4, 0.5, (t) => t), 200, 300), null, "shorter than five seconds");
});
