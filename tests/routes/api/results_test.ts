import assert from "node:assert/strict";
import { testDashboard } from "../_dashboard.ts";
import { seedStore } from "../_seed.ts";
import { rowsOf } from "../../../lib/shared/columns.ts";
import { RESULTS_COLUMNS } from "../../../lib/store/mod.ts";

Deno.test("GET /api/results returns one row per identity with its latest figures", async () => {
  await using d = await testDashboard();
  seedStore(d.web.store);
  const res = await d.request("/api/results");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.count, 8);
  assert.deepEqual(body.columns, RESULTS_COLUMNS, "the names once");
  assert.ok(body.rows.every((r: unknown[]) => r.length === RESULTS_COLUMNS.length));
  const top = rowsOf<Record<string, unknown>>(body)[0]!;
  assert.equal(top.model_key, "tiny@q8_0");
  assert.equal(top.tokens_per_sec_mean, 56);
  assert.equal(top.prev_tokens_per_sec, 55);
  assert.equal(top.speed_delta_pct, 1.82);
  assert.equal(top.result_count, 2);
  assert.equal(top.architecture, "qwen3");
  assert.equal(top.quantization, "q8_0");
});

Deno.test("a result's Δ compares it with the same identity only, and says whether Welch's test finds it", async () => {
  await using d = await testDashboard();
  const store = d.web.store;
  const model = { model_key: "org/m@q4", model_name: "org/m", quantization: "q4" };
  const result = (backend: string, hash: string, mean: number, sd: number) => {
    const id = store.beginResult({ model, params_hash: hash, backend, params: {} });
    store.finishResult(id, {
      status: "ok",
      aggregates: { tokens_per_sec_mean: mean, tokens_per_sec_std: sd, runs_ok: 5 },
    });
  };
  // One row per identity (variant × parameters hash); the newest result of h1 is the one asked.
  const row = async (hash = "h1") =>
    rowsOf<Record<string, unknown>>(await (await d.request("/api/results")).json()).find((r) =>
      r.params_hash === hash
    )!;
  result("rest", "h1", 40, 0.5);
  result("sdk", "h1", 80, 0.5); // another backend: no baseline for it
  let r = await row();
  assert.deepEqual([r.backend, r.prev_tokens_per_sec, r.speed_delta_pct], ["sdk", null, null]);
  result("rest", "h2", 60, 0.5); // other parameters: a row of its own, no baseline either
  assert.equal((await row("h2")).prev_tokens_per_sec, null);
  assert.equal((await row()).tokens_per_sec_mean, 80, "h1 keeps its own row");
  result("rest", "h1", 41, 6); // within the spread of the runs
  r = await row();
  assert.deepEqual([r.prev_tokens_per_sec, r.speed_delta_pct, r.speed_delta_significant], [
    40,
    2.5,
    0,
  ]);
  result("rest", "h1", 50, 0.5); // far outside it
  r = await row();
  assert.deepEqual([r.prev_tokens_per_sec, r.speed_delta_significant], [41, 1]);
  // Five runs, but one kept a decode speed (the others bursts without the server's figure):
  // too few for Welch's test, whatever runs_ok says.
  const id = store.beginResult({ model, params_hash: "h1", backend: "rest", params: {} });
  store.finishResult(id, {
    status: "ok",
    aggregates: {
      tokens_per_sec_mean: 90,
      tokens_per_sec_std: 0.5,
      runs_ok: 5,
      tokens_per_sec_n: 1,
    },
  });
  r = await row();
  assert.deepEqual([r.tokens_per_sec_mean, r.speed_delta_significant], [90, null]);
});
