import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { ensureColumns, MIGRATIONS, ResultsStore } from "../../../lib/store/mod.ts";
import { insertRow, type Row } from "../../../lib/store/rows.ts";
import { resultsTable } from "../../../lib/store/dashboard.ts";
import { measuredParams, paramsHash } from "../../../lib/bench/cache_key.ts";
import { builtInDefaults } from "../../../lib/config/mod.ts";
import { tempEnv } from "../../_helpers.ts";

const STAMP = "2026-11-20T10:00:00.000Z";
const workload = (prompt_tokens: number[]) => ({
  prompt_tokens,
  gen_tokens: [16],
  concurrency: [],
  request_rate: [],
  requests: 8,
  seed: 1,
  slo_ttft_ms: null,
  slo_tpot_ms: null,
});

/** The measured parameters a benchmark of these prompt lengths stores (as the CLI makes them). */
const paramsOf = (prompts: number[]) =>
  measuredParams(builtInDefaults(), "openai", {
    n_parallel: 1,
    unified_kv_cache: false,
    workload: workload(prompts),
  });

/** A store of schema 8 holding what a grid benchmark stored before schema 9: one merged result. */
function schema8WithGrid(path: string): { grid: number; plain: number } {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA foreign_keys = ON");
  for (const m of MIGRATIONS.filter((m) => m.version <= 8)) {
    db.exec(m.sql);
    m.apply?.(db);
  }
  db.exec("PRAGMA user_version = 8");
  ensureColumns(db);
  const model = insertRow(db, "models", {
    model_key: "tiny-a",
    model_name: "tiny-a",
    quantization: "f32",
    first_seen: STAMP,
    last_seen: STAMP,
  });
  const params = paramsOf([64, 256]);
  const grid = insertRow(db, "results", {
    model_id: model,
    params_hash: paramsHash(params),
    backend: "openai",
    status: "partial",
    started_at: STAMP,
    finished_at: STAMP,
    params_json: JSON.stringify(params),
    num_runs: 3,
    runs_ok: 5,
    runs_failed: 1,
    // the merged mean of both cells, as stored then (tokens per second per GiB: size 0.5 GiB)
    tokens_per_sec_mean: 180,
    tokens_per_sec_per_gb: 360,
    load_time_ms: 1234,
    workload_json: JSON.stringify({ cells: ["pp64 tg16", "pp256 tg16"], output_length: "x" }),
  });
  const run = (i: number, target: number, speed: number | null, status = "ok") =>
    insertRow(db, "runs", {
      result_id: grid,
      run_index: i,
      created_at: STAMP,
      status,
      prompt_tokens_target: target,
      gen_tokens_target: 16,
      tokens_per_sec: speed,
      ttft_ms: status === "ok" ? target / 4 : null,
      total_ms: 100,
    });
  [100, 110, 120].forEach((s, i) => run(i, 64, s));
  run(3, 256, 250);
  run(4, 256, 270);
  run(5, 256, null, "failed");
  for (const [p, tg] of [[64, 110], [256, 260]] as const) {
    insertRow(db, "grid_cells", {
      result_id: grid,
      prompt_tokens: p,
      gen_tokens: 16,
      runs: 3,
      tg_tps_mean: tg,
    });
  }
  const plainParams = measuredParams(builtInDefaults(), "openai", {
    n_parallel: 1,
    unified_kv_cache: false,
  });
  const plain = insertRow(db, "results", {
    model_id: model,
    params_hash: paramsHash(plainParams),
    backend: "openai",
    status: "ok",
    started_at: STAMP,
    finished_at: STAMP,
    params_json: JSON.stringify(plainParams),
    tokens_per_sec_mean: 90,
  });
  db.close();
  return { grid, plain };
}

Deno.test("opening a schema-8 store splits a stored grid result into one result per cell, runs and figures included", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "v8.db");
  const before = schema8WithGrid(path);
  const store = ResultsStore.open(path);
  try {
    const results = store.allResults();
    assert.equal(results.length, 3, "the grid's two cells and the plain result");
    const cell64 = results.find((r) => r.id === before.grid)!;
    const cell256 = results.find((r) => r.id !== before.grid && r.id !== before.plain)!;
    // Each cell is the identity a run of that one cell gets.
    assert.equal(cell64.params_hash, paramsHash(paramsOf([64])));
    assert.equal(cell256.params_hash, paramsHash(paramsOf([256])));
    assert.deepEqual(store.runsOf(cell64.id).map((r) => r.prompt_tokens_target), [64, 64, 64]);
    assert.deepEqual(store.runsOf(cell256.id).map((r) => r.status), ["ok", "ok", "failed"]);
    assert.equal(cell64.tokens_per_sec_mean, 110);
    assert.equal(cell256.tokens_per_sec_mean, 260);
    assert.equal(cell64.tokens_per_sec_per_gb, 220, "per GiB from the size the result implied");
    assert.deepEqual([cell64.runs_ok, cell64.runs_failed], [3, 0]);
    assert.deepEqual([cell256.runs_ok, cell256.runs_failed], [2, 1]);
    assert.deepEqual([cell64.status, cell256.status], ["ok", "partial"]);
    assert.equal(cell256.load_time_ms, 1234, "the shared metadata is copied");
    assert.deepEqual(JSON.parse(String(cell256.workload_json)).cells, ["pp256 tg16"]);
    assert.deepEqual(store.gridOf(cell256.id).map((g) => g.prompt_tokens), [256]);
    // The dashboard shows one row per identity.
    assert.deepEqual(
      resultsTable(store.db).map((r) => r.workload).sort(),
      ["prompt 256 tokens · 16 out", "prompt 64 tokens · 16 out", null].sort(),
    );
    // A cell that had a failed run is not a cache hit; the clean one is.
    assert.notEqual(store.cacheHit("tiny-a", paramsHash(paramsOf([64])), 3, null), null);
    assert.equal(store.cacheHit("tiny-a", paramsHash(paramsOf([256])), 3, null), null);
  } finally {
    store.close();
  }
});

Deno.test("splitGrid() leaves a result of one cell, or one still running, as it is", () => {
  const store = ResultsStore.open(":memory:");
  try {
    const id = store.beginResult({
      model: { model_key: "m", model_name: "m", quantization: null },
      params_hash: "h",
      backend: "openai",
      params: { backend: "openai", load: {} },
    });
    store.addGridCells(id, [{ prompt_tokens: 64, runs: 1 }, { prompt_tokens: 128, runs: 1 }]);
    assert.deepEqual(store.splitGrid(id), [id], "running: not split");
    store.finishResult(id, { status: "ok" });
    const ids = store.splitGrid(id);
    assert.equal(ids.length, 2);
    assert.deepEqual(store.splitGrid(ids[1]!), [ids[1]], "one cell: as it is");
    const rows: Row[] = store.allResults();
    assert.equal(new Set(rows.map((r) => r.params_hash)).size, 2);
  } finally {
    store.close();
  }
});
