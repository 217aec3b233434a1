import assert from "node:assert/strict";
import { MEMORY_LIMITS, memoryFor, RateProfile } from "../../../plugins/temp_eta/profile.ts";

/** Points of `rate = k·(a − x)` at x = from, from + step, … (rates falling, so no restart). */
function firstOrder(profile: RateProfile, a: number, k: number, xs: number[], memory = 300) {
  xs.forEach((x, i) => profile.add({ t: i * 5, x, rate: k * (a - x), variance: 1e-4 }, memory));
}

Deno.test("RateProfile.fitThrough() recovers k and fits the true asymptote best", () => {
  const p = new RateProfile();
  firstOrder(p, 210, 1 / 40, [60, 80, 100, 120, 140]);
  const right = p.fitThrough(210)!, wrong = p.fitThrough(260)!;
  assert.ok(Math.abs(right.k - 1 / 40) < 1e-12, `k ${right.k}`);
  assert.ok(right.sse < 1e-12 && wrong.sse > 1e-3, `sse ${right.sse} vs ${wrong.sse}`);
  assert.equal(p.count, 5);
  assert.ok(Math.abs(p.variance - 1e-4) < 1e-12);
});

Deno.test("RateProfile restarts at a new peak rate, forgetting the accelerating start", () => {
  const p = new RateProfile();
  // A lagging sensor: the rate rises for three points, then falls towards a 400 °C asymptote.
  const points = [[30, 1], [40, 2], [60, 2.6], [90, 0.01 * 310], [120, 0.01 * 280]] as const;
  points.forEach(([x, rate], i) => p.add({ t: i * 5, x, rate, variance: 1e-4 }, 300));
  assert.equal(p.count, 2, "restarted at the peak (3.1 °C/s), then one more point");
  assert.ok(Math.abs(p.fitThrough(400)!.k - 0.01) < 1e-12);
});

Deno.test("RateProfile fades old points with the memory it is given", () => {
  const short = new RateProfile(), long = new RateProfile();
  // Rates that first fit a 100 °C asymptote, then (later) a 200 °C one.
  const early = [[20, 0.8], [30, 0.7], [40, 0.6]] as const;
  const late = [[50, 0.15 * 1.5], [55, 0.145 * 1.5], [60, 0.14 * 1.5]] as const;
  for (const [profile, memory] of [[short, 20], [long, 3000]] as const) {
    early.forEach(([x, rate], i) => profile.add({ t: i, x, rate, variance: 1e-4 }, memory));
    late.forEach(([x, rate], i) => profile.add({ t: 200 + i, x, rate, variance: 1e-4 }, memory));
  }
  const prefers = (p: RateProfile) => (p.fitThrough(200)!.sse < p.fitThrough(100)!.sse ? 200 : 100);
  assert.equal(prefers(short), 200);
  assert.equal(prefers(long), 100);
});

Deno.test("RateProfile ignores non-finite points and has nothing to fit when empty", () => {
  const p = new RateProfile();
  assert.equal(p.fitThrough(100), null);
  p.add({ t: 0, x: NaN, rate: 1, variance: 1e-4 }, 60);
  assert.equal(p.count, 0);
});

Deno.test("memoryFor() is the heater's time scale, distance / rate, within the limits", () => {
  assert.equal(memoryFor(100, 1), 100);
  assert.equal(memoryFor(1, 1), MEMORY_LIMITS.min);
  assert.equal(memoryFor(100, 0.01), MEMORY_LIMITS.max);
  assert.equal(memoryFor(10, 0), MEMORY_LIMITS.max);
});
