import assert from "node:assert/strict";
import { fitApproach } from "../../../plugins/temp_eta/fit.ts";
import {
  blendRecent,
  PROFILE_ERROR,
  RECENT_WINDOW,
  recentApproach,
  SLOWER_Z,
} from "../../../plugins/temp_eta/recent.ts";
import { curve, gaussian } from "./heaters.ts";

/** A first-order approach to 80 °C with rate constant `k`, 4 °C short at t = 0. */
const tail = (k: number) => (t: number) => 80 - 4 * Math.exp(-k * t);

Deno.test("fitApproach() recovers the gap and rate constant of an exact approach", () => {
  const ts = [-20, -15, -10, -5, 0], f = tail(0.02);
  const fit = fitApproach(ts, ts.map((t) => f(t + 20)), 80)!;
  assert.ok(Math.abs(fit.k - 0.02) < 1e-4, `k ${fit.k}`);
  assert.ok(Math.abs(fit.gap - 4 * Math.exp(-0.4)) < 1e-3, `gap ${fit.gap}`);
  assert.ok(fit.kVariance < 1e-10, "no residuals, no variance");
  assert.equal(fitApproach([0, 1], [1, 2], 80), null);
});

Deno.test("fitApproach() is unbiased on noisy readings a few tenths from the asymptote", () => {
  // 60 s at 2 Hz of σ 0.3 °C, 0.1 °C steps, ending 1.3 °C short: a fit of ln(a − x) weighted by
  // the noisy gap reads 5–10 % low here; this one stays within its own standard deviation.
  const k = 0.012, ks: number[] = [], sds: number[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    const n = gaussian(seed * 7919), f = (t: number) => 80 - 2.66 * Math.exp(-k * t);
    const ts = Array.from({ length: 121 }, (_, i) => i / 2 - 60);
    const xs = ts.map((t) => Math.round((f(t + 60) + 0.3 * n()) * 10) / 10);
    const fit = fitApproach(ts, xs, 80)!;
    ks.push(fit.k);
    sds.push(Math.sqrt(fit.kVariance));
  }
  const mean = ks.reduce((a, b) => a + b) / ks.length;
  const spread = Math.sqrt(ks.reduce((a, b) => a + (b - mean) ** 2, 0) / (ks.length - 1));
  const sd = sds.reduce((a, b) => a + b) / sds.length;
  assert.ok(Math.abs(mean - k) < 2 * spread / Math.sqrt(ks.length), `mean k ${mean}`);
  assert.ok(spread > 0.6 * sd && spread < 1.6 * sd, `spread ${spread} vs stated ${sd}`);
});

Deno.test("recentApproach() gives the first-order ETA to the goal from the last minute", () => {
  const k = 0.012, f = tail(k);
  const samples = curve(90, 0.5, f);
  const recent = recentApproach(samples, 80, 79)!;
  const expected = Math.log((80 - f(90)) / 1) / k;
  assert.ok(Math.abs(recent.eta - expected) < 0.01 * expected, `eta ${recent.eta} vs ${expected}`);
  assert.ok(Math.abs(recent.k - k) < 1e-4);
  // Too short a stretch of readings: nothing.
  assert.equal(recentApproach(curve(0.5 * RECENT_WINDOW, 0.5, f), 80, 79), null);
  // Already within the threshold: nothing to blend.
  assert.equal(recentApproach(curve(90, 0.5, () => 79.5), 80, 79), null);
});

Deno.test("blendRecent() leaves the profile alone unless the heater is clearly slower", () => {
  const recent = { eta: 120, k: 0.01, kVariance: 0.0005 ** 2, relativeVariance: 0.05 ** 2 };
  // Faster than the profile, or a later arrival that is within the noise: unchanged.
  assert.equal(blendRecent(150, recent, 0.012), 150);
  assert.equal(blendRecent(90, { ...recent, k: 0.0119 }, 0.012), 90);
  assert.equal(blendRecent(90, null, 0.012), 90);
  assert.ok(0.012 - SLOWER_Z * 0.0005 > recent.k, "the case below is beyond the noise");
  // Slower beyond the noise: between the two, nearer the recent fit the more precise it is.
  const w = PROFILE_ERROR ** 2 / (PROFILE_ERROR ** 2 + 0.05 ** 2);
  const blended = blendRecent(90, recent, 0.012);
  assert.ok(Math.abs(blended - Math.exp(w * Math.log(120) + (1 - w) * Math.log(90))) < 1e-9);
  const vague = blendRecent(90, { ...recent, relativeVariance: 0.3 ** 2 }, 0.012);
  assert.ok(90 < vague && vague < blended && blended < 120, `${vague} < ${blended}`);
});
