import assert from "node:assert/strict";
import { BUCKET_MEMORY, BUCKET_SECONDS, SampleBuckets } from "../../../plugins/temp_eta/buckets.ts";

Deno.test("SampleBuckets averages every 5 s of samples and keeps 10 minutes of them", () => {
  const b = new SampleBuckets();
  const samples = Array.from({ length: 1000 }, (_, t) => ({ t, actual: 20 + 0.01 * t }));
  b.addAll(samples);
  b.addAll(samples); // already added: ignored
  const means = b.means;
  assert.equal(means[1]!.t - means[0]!.t, BUCKET_SECONDS);
  assert.ok(Math.abs(means.at(-1)!.actual - (20 + 0.01 * means.at(-1)!.t)) < 1e-9);
  assert.ok(b.span <= BUCKET_MEMORY && b.span >= BUCKET_MEMORY - BUCKET_SECONDS, `${b.span}`);
});

Deno.test("SampleBuckets.trend() gives the rate over the last window of buckets", () => {
  const b = new SampleBuckets();
  b.addAll(Array.from({ length: 300 }, (_, t) => ({ t, actual: 30 - 0.02 * t })));
  const trend = b.trend(120)!;
  assert.ok(Math.abs(trend.rate + 0.02) < 1e-9, `${trend.rate}`);
  assert.ok(trend.span >= 110 && trend.span <= 120);
  assert.equal(new SampleBuckets().trend(60), null);
});
