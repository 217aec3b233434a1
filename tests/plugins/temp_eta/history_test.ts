import assert from "node:assert/strict";
import { HeaterHistory } from "../../../plugins/temp_eta/history.ts";

Deno.test("HeaterHistory keeps at most history_max_samples, dropping the oldest", () => {
  const h = new HeaterHistory({ maxAge: 60, maxSamples: 10 });
  for (let t = 0; t < 25; t++) h.add({ t, actual: t });
  assert.equal(h.samples.length, 10);
  assert.equal(h.samples[0]!.t, 15);
  h.setLimits({ maxAge: 60, maxSamples: 4 });
  assert.deepEqual(h.samples.map((s) => s.t), [21, 22, 23, 24]);
});

Deno.test("HeaterHistory.cleanup() deletes samples older than history_max_age", () => {
  const h = new HeaterHistory({ maxAge: 10, maxSamples: 1000 });
  for (let t = 0; t <= 30; t++) h.add({ t, actual: 20 });
  assert.equal(h.samples.length, 31, "age applies at cleanup only");
  assert.equal(h.cleanup(), 20);
  assert.equal(h.samples[0]!.t, 20);
  assert.equal(h.cleanup(), 0);
});

Deno.test("HeaterHistory keeps time order and ignores non-finite readings", () => {
  const h = new HeaterHistory({ maxAge: 60, maxSamples: 100 });
  h.add({ t: 1, actual: 20 });
  h.add({ t: 0.5, actual: 99 });
  h.add({ t: 1, actual: 21 });
  h.add({ t: 2, actual: Number.NaN });
  assert.deepEqual(h.samples, [{ t: 1, actual: 21 }]);
  h.clear();
  assert.equal(h.last, undefined);
  assert.equal(h.cleanup(), 0);
});
