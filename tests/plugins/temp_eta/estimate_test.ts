import assert from "node:assert/strict";
import {
  estimateCooling,
  estimateHeating,
  type EstimateOptions,
  linearTrend,
  type Sample,
  windowOf,
} from "../../../plugins/temp_eta/estimate.ts";
import { fitExponential, fitLine } from "../../../plugins/temp_eta/fit.ts";

const OPTIONS: EstimateOptions = {
  algorithm: "linear",
  linearWindow: 10,
  exponentialWindow: 30,
  maxTau: 300,
  threshold: 1,
};

/** Samples every `step` seconds from 0 to `seconds` of a curve. */
function curve(seconds: number, step: number, f: (t: number) => number): Sample[] {
  const out: Sample[] = [];
  for (let t = 0; t <= seconds + 1e-9; t += step) out.push({ t, actual: f(t) });
  return out;
}

/** A deterministic normal noise source (Box–Muller over a linear congruential generator). */
function noise(seed: number, sigma: number): () => number {
  let state = seed;
  const uniform = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state + 1) / 2147483649;
  };
  return () => sigma * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

const firstOrder = (from: number, to: number, tau: number) => (t: number) =>
  to + (from - to) * Math.exp(-t / tau);

Deno.test("fitLine() recovers slope and intercept of a straight line", () => {
  const line = fitLine([0, 1, 2, 3], [1, 3, 5, 7]);
  assert.ok(line);
  assert.ok(Math.abs(line.slope - 2) < 1e-12 && Math.abs(line.intercept - 1) < 1e-12);
  assert.equal(fitLine([1, 1, 1], [1, 2, 3]), null);
  assert.equal(fitLine([1], [1]), null);
});

Deno.test("fitExponential() recovers asymptote and time constant of a first-order curve", () => {
  const samples = curve(40, 0.5, firstOrder(200, 25, 60));
  const fit = fitExponential(samples.map((s) => s.t), samples.map((s) => s.actual), 1, 300);
  assert.ok(fit);
  assert.ok(Math.abs(fit.tau - 60) < 0.1, `tau ${fit.tau}`);
  assert.ok(Math.abs(fit.asymptote - 25) < 0.2, `ambient ${fit.asymptote}`);
});

Deno.test("fitExponential() gives up on a straight line (no bend to place an asymptote)", () => {
  const samples = curve(20, 0.5, (t) => 100 - t);
  assert.equal(fitExponential(samples.map((s) => s.t), samples.map((s) => s.actual), 1, 300), null);
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
  assert.ok(trend && Math.abs(trend.rate - 3) < 1e-9 && Math.abs(trend.now - 6) < 1e-9);
});

Deno.test("estimateHeating() with constant-rate heating gives the exact linear ETA", () => {
  // 2 °C/s from 20 °C, 20 s of samples → 60 °C now; target 101: 40 °C to go to within 1 °C.
  const samples = curve(20, 0.5, (t) => 20 + 2 * t);
  const e = estimateHeating(samples, 101, OPTIONS);
  assert.equal(e.method, "linear");
  assert.ok(Math.abs(e.rate! - 2) < 1e-9);
  assert.ok(Math.abs(e.eta! - 20) < 1e-9, `eta ${e.eta}`);
});

Deno.test("estimateHeating() exponential on a first-order curve gives τ·ln(gap/threshold)", () => {
  // τ = 40 s from 22 °C to 200 °C, 30 s of samples: gap now = 178·e^(−30/40).
  const samples = curve(30, 0.5, firstOrder(22, 200, 40));
  const gap = 178 * Math.exp(-30 / 40);
  const expected = 40 * Math.log(gap / 1);
  const e = estimateHeating(samples, 200, { ...OPTIONS, algorithm: "exponential" });
  assert.equal(e.method, "exponential");
  assert.ok(Math.abs(e.tau! - 40) < 1e-6, `tau ${e.tau}`);
  assert.ok(Math.abs(e.eta! - expected) < 1e-6, `eta ${e.eta} expected ${expected}`);
  // The linear estimate of the same curve is far too early.
  const linear = estimateHeating(samples, 200, OPTIONS);
  assert.ok(linear.eta! < expected * 0.5);
});

Deno.test("estimateHeating() exponential falls back to linear when τ exceeds the cap", () => {
  const samples = curve(30, 0.5, firstOrder(22, 200, 400));
  const capped = estimateHeating(samples, 200, { ...OPTIONS, algorithm: "exponential" });
  assert.equal(capped.method, "linear");
  const uncapped = estimateHeating(samples, 200, {
    ...OPTIONS,
    algorithm: "exponential",
    maxTau: 1000,
  });
  assert.equal(uncapped.method, "exponential");
  assert.ok(Math.abs(uncapped.tau! - 400) < 1e-3);
});

Deno.test("estimateHeating() exponential falls back to linear with fewer than six samples", () => {
  const samples = curve(2, 0.5, (t) => 20 + 2 * t);
  const e = estimateHeating(samples, 101, { ...OPTIONS, algorithm: "exponential" });
  assert.equal(e.method, "linear");
});

Deno.test("estimateHeating() gives no ETA when the temperature does not rise", () => {
  const flat = estimateHeating(curve(20, 0.5, () => 50), 100, OPTIONS);
  assert.equal(flat.eta, null);
  assert.ok(Math.abs(flat.rate!) < 1e-12);
  const falling = estimateHeating(curve(20, 0.5, (t) => 80 - t), 100, OPTIONS);
  assert.equal(falling.eta, null);
  assert.ok(falling.rate! < 0);
});

Deno.test("estimateHeating() reports no rate without enough samples", () => {
  assert.deepEqual(estimateHeating([{ t: 0, actual: 20 }], 100, OPTIONS), {
    rate: null,
    eta: null,
    method: null,
  });
});

Deno.test("estimateHeating() stays within 10 % on a noisy first-order curve", () => {
  const n = noise(7, 0.3);
  const truth = firstOrder(22, 200, 40);
  const samples = curve(30, 0.5, (t) => truth(t) + n());
  const expected = 40 * Math.log((200 - truth(30)) / 1);
  const e = estimateHeating(samples, 200, { ...OPTIONS, algorithm: "exponential" });
  assert.equal(e.method, "exponential");
  assert.ok(Math.abs(e.eta! - expected) / expected < 0.1, `eta ${e.eta} expected ${expected}`);
  const rate = (200 - truth(30)) / 40;
  const linear = estimateHeating(samples, 200, OPTIONS);
  assert.ok(Math.abs(linear.rate! - rate) / rate < 0.15, `rate ${linear.rate} vs ${rate}`);
});

Deno.test("estimateCooling() with a constant cooling rate gives the exact linear ETA", () => {
  // −1 °C/s from 150 °C, 20 s → 130 °C now; goal 50 reached at 51: 79 s.
  const e = estimateCooling(curve(20, 0.5, (t) => 150 - t), 50, OPTIONS);
  assert.equal(e.method, "linear");
  assert.ok(Math.abs(e.rate! + 1) < 1e-9);
  assert.ok(Math.abs(e.eta! - 79) < 1e-9, `eta ${e.eta}`);
});

Deno.test("estimateCooling() exponential follows Newton's law towards the fitted ambient", () => {
  // τ = 120 s from 200 °C towards 25 °C; after 30 s, time until 51 °C.
  const truth = firstOrder(200, 25, 120);
  const samples = curve(30, 0.5, truth);
  const expected = 120 * Math.log((truth(30) - 25) / (51 - 25));
  const e = estimateCooling(samples, 50, { ...OPTIONS, algorithm: "exponential" });
  assert.equal(e.method, "exponential");
  assert.ok(Math.abs(e.tau! - 120) < 0.5, `tau ${e.tau}`);
  assert.ok(Math.abs(e.eta! - expected) / expected < 0.01, `eta ${e.eta} expected ${expected}`);
  assert.ok(e.rate! < 0);
});

Deno.test("estimateCooling() falls back to linear when the ambient lies above the goal", () => {
  // Cooling towards 60 °C can never reach a 50 °C goal: the exponential refuses, linear answers.
  const samples = curve(30, 0.5, firstOrder(150, 60, 30));
  const e = estimateCooling(samples, 50, { ...OPTIONS, algorithm: "exponential" });
  assert.equal(e.method, "linear");
});

Deno.test("estimateCooling() gives no ETA while the heater warms up", () => {
  const e = estimateCooling(curve(20, 0.5, (t) => 60 + t), 50, OPTIONS);
  assert.equal(e.eta, null);
});
