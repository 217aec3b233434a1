import assert from "node:assert/strict";
import { testDashboard } from "../../_dashboard.ts";
import { seedStore } from "../../_seed.ts";

Deno.test("GET /api/dashboard/stats returns exactly the seed's object plus the KPI counts", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const s = await (await d.request("/api/dashboard/stats")).json();
  assert.deepEqual(Object.keys(s).sort(), [
    "architecture_count",
    "architecture_distribution",
    "cached_models",
    "efficiency_top",
    "quantization_count",
    "quantization_distribution",
    "speed_summary",
    "top_models_extended",
    "total_results",
    "total_runs",
  ]);
  // Latest speeds: 21, 26, 31, 36, 41, 46, 51, 56.
  assert.deepEqual(s.speed_summary, { min: 21, p50: 38.5, avg: 38.5, p95: 54.25, max: 56 });
  assert.equal(s.top_models_extended.length, 8);
  assert.deepEqual(Object.keys(s.top_models_extended[0]).sort(), [
    "architecture",
    "backend",
    "machine_name",
    "model_key",
    "model_name",
    "quantization",
    "speed",
    "vram_mb",
    "workload",
  ]);
  assert.equal(s.top_models_extended[0].model_name, "tiny");
  assert.equal(typeof s.top_models_extended[0].vram_mb, "string");
  assert.deepEqual(s.quantization_distribution, { q4_k_m: 4, q8_0: 4 });
  assert.deepEqual(s.architecture_distribution, { qwen3: 4, gemma3: 2, llama: 2 });
  assert.equal(s.efficiency_top.length, 5);
  const eff = s.efficiency_top.map((e: { tokens_per_sec_per_gb: number }) =>
    e.tokens_per_sec_per_gb
  );
  assert.deepEqual(eff, [...eff].sort((a, b) => b - a));
  assert.equal(s.cached_models, 8);
  assert.equal(s.total_results, 16);
  assert.equal(s.total_runs, 48);
  assert.equal(s.architecture_count, 3);
  assert.equal(s.quantization_count, 2);
});

Deno.test("GET /api/dashboard/stats keeps at most 10 top models and is all zeros when empty", async () => {
  await using d = await testDashboard();
  const empty = await (await d.request("/api/dashboard/stats")).json();
  assert.deepEqual(empty.speed_summary, { min: 0, p50: 0, avg: 0, p95: 0, max: 0 });
  assert.equal(empty.cached_models, 0);
  seedStore(d.web.store, { models: Array.from({ length: 7 }, (_, i) => `m${i}`) });
  const s = await (await d.request("/api/dashboard/stats")).json();
  assert.equal(s.cached_models, 14);
  assert.equal(s.top_models_extended.length, 10);
});
