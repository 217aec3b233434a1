import assert from "node:assert/strict";
import { POSITIVE, quantile, summarize, summaryColumns } from "../../lib/stats.ts";

const close = (a: number | null, b: number, eps = 1e-9) =>
  assert.ok(a !== null && Math.abs(a - b) < eps, `${a} ≈ ${b}`);

Deno.test("summaries of known values give mean, median, p95, sample std and extremes", () => {
  const s = summarize([2, 4, 4, 4, 5, 5, 7, 9]);
  assert.equal(s.n, 8);
  assert.equal(s.mean, 5);
  assert.equal(s.median, 4.5);
  assert.equal(s.min, 2);
  assert.equal(s.max, 9);
  close(s.std, Math.sqrt(32 / 7)); // divides by n − 1, not n (population std would be 2)
  close(s.p95, 7 + 0.65 * 2); // position 6.65 between 7 and 9
  close(s.cv, Math.sqrt(32 / 7) / 5);
});

Deno.test("the 95% interval uses Student's t with n − 1 degrees of freedom", () => {
  const s = summarize([10, 12, 14]);
  // mean 12, std 2, t(2) = 4.3027 → half-width 4.3027·2/√3
  const half = 4.302652730 * 2 / Math.sqrt(3);
  close(s.ci_low, 12 - half, 1e-6);
  close(s.ci_high, 12 + half, 1e-6);
});

Deno.test("the interval of a positive metric never reaches below zero: its lower end is put at 0", () => {
  // A slow first token among fast ones: mean 345, t-interval about -954–1644 ms.
  const raw = summarize([40, 45, 950]);
  assert.ok(raw.ci_low! < 0);
  const s = summarize([40, 45, 950], POSITIVE);
  assert.equal(s.ci_low, 0);
  assert.equal(s.ci_high, raw.ci_high, "the upper end is the t-interval's");
  const tight = summarize([10, 12, 14], POSITIVE);
  close(tight.ci_low, 12 - 4.302652730 * 2 / Math.sqrt(3), 1e-6); // untouched inside the domain
});

Deno.test("one value has a mean but no spread, and no values give nulls", () => {
  const one = summarize([42]);
  assert.deepEqual([one.mean, one.median, one.p95, one.std, one.ci_low, one.cv], [
    42,
    42,
    42,
    null,
    null,
    null,
  ]);
  const none = summarize([]);
  assert.equal(none.n, 0);
  assert.ok(Object.entries(none).every(([k, v]) => k === "n" || v === null));
});

Deno.test("nulls and non-finite values are left out, and a zero mean has no CV", () => {
  const s = summarize([1, null, undefined, Number.NaN, 3, Infinity]);
  assert.equal(s.n, 2);
  assert.equal(s.mean, 2);
  assert.equal(summarize([-1, 1]).cv, null);
});

Deno.test("quantiles interpolate linearly at position (n − 1)·q", () => {
  assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
  assert.equal(quantile([1, 2, 3, 4], 0), 1);
  assert.equal(quantile([1, 2, 3, 4], 1), 4);
  assert.equal(quantile([], 0.5), null);
});

Deno.test("summary columns are named <metric>_<stat>", () => {
  const cols = summaryColumns("ttft_ms", summarize([1, 2, 3]));
  assert.deepEqual(Object.keys(cols), [
    "ttft_ms_mean",
    "ttft_ms_median",
    "ttft_ms_p95",
    "ttft_ms_min",
    "ttft_ms_max",
    "ttft_ms_std",
    "ttft_ms_ci_low",
    "ttft_ms_ci_high",
    "ttft_ms_cv",
  ]);
  assert.equal(cols.ttft_ms_mean, 2);
});
