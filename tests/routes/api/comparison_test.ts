import assert from "node:assert/strict";
import type { ResultsStore } from "../../../lib/store/mod.ts";
import { testDashboard } from "../_dashboard.ts";
import { seedStore } from "../_seed.ts";

/**
 * A finished result of a variant measured through `backend` at `speed` tokens/s (5 runs, with
 * a spread of `sd`).
 */
function measured(
  store: ResultsStore,
  quant: string,
  backend: string,
  speed: number,
  sd = 0.5,
): void {
  const id = store.beginResult({
    model: {
      model_key: `qwen/qwen3-4b@${quant}`,
      model_name: "qwen/qwen3-4b",
      quantization: quant,
    },
    params_hash: `h-${backend}`,
    backend,
    params: {},
  });
  store.finishResult(id, {
    status: "ok",
    aggregates: { tokens_per_sec_mean: speed, tokens_per_sec_std: sd, runs_ok: 5 },
  });
}

Deno.test("the comparison gives one series per variant and backend, each with its own trend", async () => {
  await using d = await testDashboard();
  const store = d.web.store;
  // Two variants measured in turn: one line alternating 42 and 29 tokens/s looked like "down".
  for (let i = 0; i < 3; i++) {
    measured(store, "q4_k_m", "rest", 42);
    measured(store, "q8_0", "rest", 29);
  }
  measured(store, "q4_k_m", "sdk", 45);
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(body.history.length, 7, "every point, as before");
  assert.deepEqual(
    body.series.map((s: { id: string; backend: string; history: unknown[] }) => [
      s.id,
      s.backend,
      s.history.length,
    ]),
    [
      ["qwen/qwen3-4b@q4_k_m · rest · h-rest", "rest", 3],
      ["qwen/qwen3-4b@q8_0 · rest · h-rest", "rest", 3],
      ["qwen/qwen3-4b@q4_k_m · sdk · h-sdk", "sdk", 1],
    ],
  );
  for (const s of body.series) {
    assert.equal(s.stats.trend, "stable", s.id);
    assert.equal(s.stats.slope, 0, s.id);
  }
  assert.equal(body.series[1].stats.avg_speed, 29);
  assert.equal(body.stats.trend, "stable", "the series agree");
  assert.equal(body.stats.slope, null, "no single slope over several series");
  assert.deepEqual([body.stats.min_speed, body.stats.max_speed], [29, 45]);

  // A variant's own page: its two backends.
  const variant = await (await d.request("/api/comparison/qwen%2Fqwen3-4b@q4_k_m")).json();
  assert.deepEqual(variant.series.map((s: { backend: string }) => s.backend), ["rest", "sdk"]);
  measured(store, "q8_0", "rest", 20);
  const mixed = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(mixed.series[1].stats.trend, "down");
  assert.equal(mixed.stats.trend, "mixed", "one series down, the others stable");
});

Deno.test("one series keeps the trend and slope of the whole model", async () => {
  await using d = await testDashboard();
  for (const speed of [40, 41, 42]) measured(d.web.store, "q4_k_m", "rest", speed);
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(body.series.length, 1);
  assert.equal(body.stats.trend, "up");
  assert.equal(body.stats.slope, 1);
  assert.deepEqual(body.stats, body.series[0].stats);
});

Deno.test("a change within the runs' spread is no trend: 'stable', whatever the slope", async () => {
  await using d = await testDashboard();
  for (const speed of [40, 41, 42]) measured(d.web.store, "q4_k_m", "rest", speed, 6);
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.equal(body.stats.slope, 1, "the line still rises");
  assert.equal(body.stats.trend, "stable", "Welch's test finds no significant change");
});

Deno.test("the same variant with another workload is another line", async () => {
  await using d = await testDashboard();
  const store = d.web.store;
  const model = {
    model_key: "qwen/qwen3-4b@q4_k_m",
    model_name: "qwen/qwen3-4b",
    quantization: "q4_k_m",
  };
  for (
    const [hash, params, speed] of [
      ["h-default", {}, 40],
      ["h-grid", { workload: { prompt_tokens: [64, 256], gen_tokens: [128] } }, 300],
    ] as const
  ) {
    const id = store.beginResult({ model, params_hash: hash, backend: "rest", params });
    store.finishResult(id, {
      status: "ok",
      aggregates: { tokens_per_sec_mean: speed, tokens_per_sec_std: 1, runs_ok: 5 },
    });
  }
  const body = await (await d.request("/api/comparison/qwen/qwen3-4b")).json();
  assert.deepEqual(
    body.series.map((s: { workload: string | null; stats: { trend: string } }) => [
      s.workload,
      s.stats.trend,
    ]),
    [[null, "stable"], ["prompt 64,256 tokens · 128 out", "stable"]],
  );
  assert.equal(body.history[0].params_json, undefined, "the parameters stay in the series");
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
