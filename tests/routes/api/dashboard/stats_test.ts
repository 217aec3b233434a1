import assert from "node:assert/strict";
import { post, testDashboard } from "../../_dashboard.ts";
import { seedStore } from "../../_seed.ts";

Deno.test("GET /api/results returns one row per model variant with its latest figures", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const res = await d.request("/api/results");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.count, 8);
  assert.equal(body.results.length, 8);
  const top = body.results[0];
  assert.equal(top.model_key, "tiny@q8_0");
  assert.equal(top.tokens_per_sec_mean, 56);
  assert.equal(top.prev_tokens_per_sec, 55);
  assert.equal(top.speed_delta_pct, 1.82);
  assert.equal(top.result_count, 2);
  assert.equal(top.architecture, "qwen3");
  assert.equal(top.quantization, "q8_0");
});

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
    "model_key",
    "model_name",
    "quantization",
    "speed",
    "vram_mb",
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

Deno.test("GET /api/comparison/{model_name} works for names containing '/'", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store, { resultsPerVariant: 3 });
  const res = await d.request("/api/comparison/qwen/qwen3-4b");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.model_name, "qwen/qwen3-4b");
  assert.equal(body.history.length, 6);
  assert.equal(body.stats.total_runs, 6);
  assert.equal(body.stats.min_speed, 20);
  assert.equal(body.stats.max_speed, 27);
  assert.ok(["up", "down", "stable"].includes(body.stats.trend));
  const variant = await (await d.request("/api/comparison/qwen%2Fqwen3-4b@q8_0")).json();
  assert.equal(variant.history.length, 3);
  assert.equal(variant.stats.trend, "up");
  const list = await (await d.request("/api/comparison")).json();
  assert.equal(list.models.length, 4);
});

Deno.test("GET /api/comparison/{model_name} is a 404 for a model without results", async () => {
  await using d = await testDashboard();
  const res = await d.request("/api/comparison/nobody/nothing");
  assert.equal(res.status, 404);
  assert.match((await res.json()).error, /nobody\/nothing/);
});

Deno.test("DELETE /api/cache/{model_key} deletes a variant whose key contains '/'", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const res = await d.request("/api/cache/qwen/qwen3-4b@q4_k_m", { method: "DELETE" });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { model_key: "qwen/qwen3-4b@q4_k_m", deleted_results: 2 });
  assert.equal((await (await d.request("/api/results")).json()).count, 7);
  const again = await d.request("/api/cache/qwen/qwen3-4b@q4_k_m", { method: "DELETE" });
  assert.equal(again.status, 404);
});

Deno.test("POST /api/cache/clear keeps a backup copy and empties the results", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const res = await post(d, "/api/cache/clear");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.deleted_count, 16);
  assert.ok((await Deno.stat(body.backup_file)).size > 0);
  assert.equal((await (await d.request("/api/results")).json()).count, 0);
});
