import assert from "node:assert/strict";
import { waitForLimits } from "../../../lib/bench/limits.ts";
import type { HardwareSample } from "../../../lib/bench/events.ts";
import type { Profiler } from "../../../lib/bench/profiler_types.ts";

function profiler(readings: Partial<HardwareSample>[]): Profiler & { samples: number } {
  let i = 0;
  const p = {
    samples: 0,
    start() {},
    stop: () => Promise.resolve({}),
    latest: () => null,
    sample() {
      p.samples++;
      const r = readings[Math.min(i++, readings.length - 1)]!;
      return Promise.resolve({
        time: 0,
        temp_c: null,
        power_w: null,
        gpu_vram_gb: null,
        gtt_gb: null,
        cpu_percent: null,
        ram_gb: null,
        ...r,
      });
    },
    gpuName: () => null,
    vramUsedMb: () => Promise.resolve(null),
    unreadable: () => [],
  };
  return p;
}

const signal = new AbortController().signal;

Deno.test("without limits nothing is sampled", async () => {
  const p = profiler([{ temp_c: 99 }]);
  const r = await waitForLimits(p, { max_temp: null, max_power: null }, signal);
  assert.deepEqual(r, { seconds: 0, warning: null });
  assert.equal(p.samples, 0);
});

Deno.test("under the limits there is no wait and no warning", async () => {
  const p = profiler([{ temp_c: 60, power_w: 100 }]);
  const r = await waitForLimits(p, { max_temp: 80, max_power: 200 }, signal, { pollMs: 1 });
  assert.deepEqual(r, { seconds: 0, warning: null });
});

Deno.test("above --max-temp it waits until the GPU cools and says so", async () => {
  const p = profiler([{ temp_c: 90 }, { temp_c: 85 }, { temp_c: 70 }]);
  const r = await waitForLimits(p, { max_temp: 80, max_power: null }, signal, { pollMs: 1 });
  assert.equal(p.samples, 3);
  assert.ok(r.seconds > 0);
  assert.match(r.warning!, /^waited .* s to cool down \(GPU temperature 90 °C above --max-temp 80/);
});

Deno.test("above --max-power past the longest wait it goes on with a warning", async () => {
  const p = profiler([{ power_w: 350 }]);
  const r = await waitForLimits(p, { max_temp: null, max_power: 300 }, signal, {
    pollMs: 1,
    maxWaitMs: 5,
  });
  assert.match(r.warning!, /GPU power 350 W above --max-power 300 after waiting \d+ s; went on/);
});

Deno.test("a GPU without a temperature never blocks", async () => {
  const p = profiler([{ temp_c: null }]);
  const r = await waitForLimits(p, { max_temp: 80, max_power: null }, signal, { pollMs: 1 });
  assert.equal(r.seconds, 0);
});

Deno.test("stopping the job ends the wait", async () => {
  const ctl = new AbortController();
  const p = profiler([{ temp_c: 95 }]);
  const wait = waitForLimits(p, { max_temp: 80, max_power: null }, ctl.signal, { pollMs: 10_000 });
  await new Promise((r) => setTimeout(r, 10));
  ctl.abort(new DOMException("stop", "AbortError"));
  await assert.rejects(wait, /stop/);
});
