import assert from "node:assert/strict";
import { optionWarnings, sensorWarnings } from "../../../lib/bench/honesty.ts";
import { builtInDefaults } from "../../../lib/config/mod.ts";
import { bench, ofType, testOptions } from "./_harness.ts";

const QWEN = "qwen/qwen3-4b@q4_k_m";

Deno.test("options that do nothing in the setting are said once each", () => {
  const config = builtInDefaults();
  const none = optionWarnings(config, testOptions({ n_parallel: 4 }), "sdk");
  assert.deepEqual(none, [], "defaults warn about nothing, even SDK mode's default --n-parallel");
  const w = optionWarnings(
    config,
    testOptions({
      max_temp: 80,
      max_power: 200,
      unified_kv_cache: true,
      n_parallel: 4,
      given: ["max_temp", "max_power", "unified_kv_cache", "n_parallel"],
    }),
    "sdk",
  );
  assert.equal(w.length, 3);
  assert.match(w[0]!, /--max-temp and --max-power do nothing without --enable-profiling/);
  assert.match(w[1]!, /--n-parallel does nothing in SDK mode/);
  assert.match(w[2]!, /--unified-kv-cache does nothing here/);
  const sensors = sensorWarnings(testOptions({ enable_profiling: true, max_temp: 80 }), {
    time: 0,
    temp_c: null,
    power_w: null,
    gpu_vram_gb: null,
    gtt_gb: null,
    cpu_percent: 5,
    ram_gb: 1,
  });
  assert.deepEqual(sensors, [
    "--max-temp does nothing: no GPU temperature sensor was found on this machine",
  ]);
});

Deno.test("a profiling limit without a sensor is recorded as ignored on the result", async () => {
  await using b = await bench();
  const sample = {
    time: 0,
    temp_c: null,
    power_w: null,
    gpu_vram_gb: null,
    gtt_gb: null,
    cpu_percent: 1,
    ram_gb: 1,
  };
  const profiler = {
    start() {},
    stop: () => Promise.resolve({}),
    sample: () => Promise.resolve(sample),
    latest: () => sample,
    vramUsedMb: () => Promise.resolve(null),
    unreadable: () => [],
    gpuName: () => null,
  };
  const { events } = await b.run(
    "rest",
    testOptions({ enable_profiling: true, max_temp: 80, filters: { include_models: QWEN } }),
    { profiler },
  );
  const warn = ofType(events, "log").filter((e) => e.level === "warn").map((e) => e.message);
  assert.ok(
    warn.includes("--max-temp does nothing: no GPU temperature sensor was found on this machine"),
  );
  const applied = JSON.parse(String(b.store.allResults()[0]!.applied_json));
  assert.equal(applied.max_temp.status, "ignored");
});
