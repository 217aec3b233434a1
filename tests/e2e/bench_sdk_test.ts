import assert from "node:assert/strict";
import type { HardwareSample } from "../../lib/bench/events.ts";
import { type HardwareSummary, type Profiler, SERIES } from "../../lib/bench/profiler_types.ts";
import { LmsCli } from "../../lib/modelserver/lms_cli.ts";
import { installFakeLms } from "../doubles/fake_lms_install.ts";
import { bench, ofType, testOptions } from "../lib/bench/_harness.ts";

const MINI = "mistralai/ministral-3-3b";
/** The identity of its one variant (the store's key, whatever the backend). */
const MINI_Q4 = `${MINI}@q4_k_m`;

/** The SDK calls the double saw, e.g. `llm/loadModel`, `llm/predict`. */
function sdkCalls(requests: { method: string; path: string }[]): string[] {
  return requests.filter((r) => r.method === "WS" && /loadModel|predict|unloadModel/.test(r.path))
    .map((r) => r.path.replace(/^.*?(llm\/)/, "$1"));
}

Deno.test("an SDK benchmark loads, warms up, measures and unloads through the SDK protocol", async () => {
  await using b = await bench();
  const { summary } = await b.run("sdk", testOptions({ filters: { include_models: MINI } }));
  assert.equal(summary.outcome, "completed");
  assert.deepEqual(summary.tested, [MINI_Q4]);
  assert.deepEqual(sdkCalls(b.double.state.requests), [
    "llm/loadModel",
    "llm/predict",
    "llm/predict",
    "llm/predict",
    "llm/unloadModel",
  ]);
  assert.equal(b.double.state.instances.size, 0, "nothing is left loaded");
  const row = b.store.allResults()[0]!;
  assert.deepEqual([row.status, row.backend, row.runs_ok, row.n_parallel], ["ok", "sdk", 2, 1]);
  assert.equal(typeof row.tokens_per_sec_mean, "number");
  assert.equal(typeof row.server_tokens_per_sec_mean, "number");
});

Deno.test("SDK mode with lms installed discovers every variant from 'lms ls --json'", async () => {
  await using b = await bench();
  const fake = await installFakeLms();
  try {
    const lms = new LmsCli({ home: fake.home, path: "" });
    const { summary, events } = await b.run(
      "sdk",
      testOptions({ filters: { include_models: "^qwen/" } }),
      { lms },
    );
    assert.deepEqual(ofType(events, "job_start")[0]!.models, [
      "qwen/qwen3-4b@q4_k_m",
      "qwen/qwen3-4b@q8_0",
    ]);
    assert.deepEqual(summary.tested, ["qwen/qwen3-4b@q4_k_m", "qwen/qwen3-4b@q8_0"]);
    assert.ok(fake.read().calls.some((c) => c.join(" ") === "ls --json"));
  } finally {
    await fake.remove();
  }
});

Deno.test("SDK mode without lms finds every variant: --quants q8_0 measures the q8_0 variant", async () => {
  await using b = await bench();
  const { summary, events } = await b.run("sdk", testOptions({ filters: { quants: ["q8_0"] } }));
  assert.deepEqual(ofType(events, "job_start")[0]!.models, ["qwen/qwen3-4b@q8_0"]);
  assert.deepEqual(summary.tested, ["qwen/qwen3-4b@q8_0"]);
  const load = b.double.state.requests.find((r) => r.path === "llm/loadModel")!.body as {
    creationParameter: { modelKey: string };
  };
  assert.equal(load.creationParameter.modelKey, "qwen/qwen3-4b@q8_0", "loaded by its variant key");
  const row = b.store.allResults()[0]!;
  assert.deepEqual([row.model_key, row.quantization, row.size_bytes], [
    "qwen/qwen3-4b@q8_0",
    "q8_0",
    4280405696,
  ]);
});

Deno.test("the SDK and REST backends store one variant under one identity", async () => {
  await using b = await bench();
  for (const backend of ["sdk", "rest"] as const) {
    const { summary } = await b.run(
      backend,
      testOptions({ filters: { include_models: "^qwen/" } }),
    );
    assert.deepEqual(summary.tested, ["qwen/qwen3-4b@q4_k_m", "qwen/qwen3-4b@q8_0"], backend);
  }
  const models = b.store.db.prepare("SELECT model_key FROM models ORDER BY model_key").all()
    .map((r) => r.model_key);
  assert.deepEqual(models, ["qwen/qwen3-4b@q4_k_m", "qwen/qwen3-4b@q8_0"]);
  assert.deepEqual(
    b.store.latestPerIdentity().map((r) => `${r.model_key} ${r.backend}`).sort(),
    [
      "qwen/qwen3-4b@q4_k_m rest",
      "qwen/qwen3-4b@q4_k_m sdk",
      "qwen/qwen3-4b@q8_0 rest",
      "qwen/qwen3-4b@q8_0 sdk",
    ],
    "the newest result of each identity: a variant under each backend it ran on",
  );
  assert.equal(b.store.allResults().length, 4);
});

/** A profiler whose temperature follows `temps` (then stays at the last value). */
function fakeProfiler(temps: number[]) {
  const calls: string[] = [];
  let i = 0;
  const sample = (): HardwareSample => ({
    time: Date.now(),
    temp_c: temps[Math.min(i++, temps.length - 1)]!,
    power_w: 100,
    gpu_vram_gb: 4,
    gtt_gb: null,
    cpu_percent: 25,
    ram_gb: 8,
  });
  const profiler: Profiler = {
    start(onSample) {
      calls.push("start");
      onSample({ ...sample(), temp_c: 55 });
      i--; // the background sample does not consume a temperature
    },
    stop() {
      calls.push("stop");
      const out: HardwareSummary = {};
      for (const s of SERIES) {
        for (const stat of ["min", "max", "mean"]) out[`${s}_${stat}`] = s === "gtt_gb" ? null : 1;
      }
      out.temp_c_max = 71;
      return Promise.resolve(out);
    },
    latest: () => null,
    sample: () => Promise.resolve(sample()),
    gpuName: () => "Fake GPU",
    vramUsedMb: () => Promise.resolve(4096),
    unreadable: () => [],
  };
  return { profiler, calls };
}

Deno.test("with profiling the hardware summary and VRAM are stored and samples become events", async () => {
  await using b = await bench();
  const { profiler, calls } = fakeProfiler([50]);
  const { events } = await b.run(
    "sdk",
    testOptions({ enable_profiling: true, filters: { include_models: MINI } }),
    { profiler },
  );
  assert.deepEqual(calls, ["start", "stop"], "sampling only around the measured runs");
  const row = b.store.allResults()[0]!;
  assert.equal(row.temp_c_max, 71);
  assert.equal(row.gtt_gb_mean, null);
  assert.equal(row.vram_mb, 4096);
  assert.equal(row.throttle_wait_s, 0);
  assert.equal(ofType(events, "hardware").length, 1);
});

Deno.test("--max-temp waits before a run until the GPU is back under the limit and records it", async () => {
  await using b = await bench();
  // The job samples once before it starts (GPU name, unreadable sensors): that one is 90 too.
  const { profiler } = fakeProfiler([90, 90, 60]);
  const { summary } = await b.run(
    "sdk",
    testOptions({ enable_profiling: true, max_temp: 80, filters: { include_models: MINI } }),
    { profiler },
  );
  assert.deepEqual(summary.tested, [MINI_Q4]);
  const row = b.store.allResults()[0]!;
  assert.ok((row.throttle_wait_s as number) > 0);
  assert.match(String(row.warnings_json), /cool down/);
});
