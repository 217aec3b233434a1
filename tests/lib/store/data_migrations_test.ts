import assert from "node:assert/strict";
import { sqliteOf, type StoreDb } from "../../../lib/store/database.ts";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { comparableModels, dashboardStats, resultsTable } from "../../../lib/store/dashboard.ts";
import { ensureColumns, MIGRATIONS, ResultsStore, SCHEMA_VERSION } from "../../../lib/store/mod.ts";
import { LATEST_TRIGGERS } from "../../../lib/store/latest.ts";
import { LINE_SUMS_TRIGGERS } from "../../../lib/store/line_sums.ts";
import { tempEnv } from "../../_helpers.ts";

/** A database as schema 5 left it, with the rows the SDK, REST and OpenAI backends wrote. */
function schema5(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  for (const m of MIGRATIONS.filter((m) => m.version <= 5)) db.exec(m.sql);
  db.exec("PRAGMA user_version = 5");
  ensureColumns(db);
  return db;
}

let clock = 0;
const stamp = () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();

function model(db: DatabaseSync, key: string, quant: string | null, size: number | null): number {
  const t = stamp();
  return Number(
    db.prepare(
      `INSERT INTO models (model_key, model_name, quantization, size_bytes, first_seen, last_seen)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(key, key.replace(/@.*$/, ""), quant, size, t, t).lastInsertRowid,
  );
}

/** A result with `runs` measured runs at `speed` (and a negative TTFT interval, as stored). */
function result(
  db: DatabaseSync,
  modelId: number,
  backend: string,
  status: string,
  speed: number,
  runs = 2,
): number {
  const id = Number(
    db.prepare(
      `INSERT INTO results (model_id, params_hash, backend, status, started_at, finished_at,
         tokens_per_sec_mean, ttft_ms_mean, ttft_ms_ci_low, ttft_ms_ci_high, runs_ok)
       VALUES (?, ?, ?, ?, ?, ?, ?, 125, -1162, 1412, ?)`,
    ).run(modelId, `h-${backend}`, backend, status, stamp(), stamp(), speed, runs).lastInsertRowid,
  );
  for (let i = 0; i < runs; i++) {
    db.prepare(
      "INSERT INTO runs (result_id, run_index, created_at, tokens_per_sec) VALUES (?, ?, ?, ?)",
    ).run(id, i, stamp(), speed);
  }
  return id;
}

function latestDerived(store: StoreDb): unknown[] {
  const db = sqliteOf(store);
  return db.prepare(
    `SELECT model_id, params_hash, COALESCE(machine_id, '') AS machine_key, MAX(id) AS result_id,
       COUNT(*) AS ok_results FROM results
     WHERE status = 'ok' GROUP BY model_id, params_hash, machine_key
     ORDER BY model_id, params_hash, machine_key`,
  ).all().map((r) => ({ ...r }));
}

Deno.test("opening a schema-5 store merges each variant's SDK and REST rows into one identity", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "v5.db");
  const old = schema5(path);
  // The SDK backend stored the selected variant under the model key, REST under the variant key.
  const sdkQwen = model(old, "qwen/qwen3-4b", "q4_k_m", null);
  const restQwen = model(old, "qwen/qwen3-4b@q4_k_m", "q4_k_m", 2497280960);
  const restQ8 = model(old, "qwen/qwen3-4b@q8_0", "q8_0", 4280405696);
  // REST stored a model with one variant under its model key; nothing else names it.
  const gemma = model(old, "google/gemma-4-26b-a4b", "q4_k_m", 17990911801);
  // A llama.cpp server's model id names one file: it is kept.
  const tiny = model(old, "tiny-a", "f32", 4800000);
  result(old, sdkQwen, "sdk", "ok", 88);
  result(old, restQwen, "rest", "ok", 87);
  result(old, sdkQwen, "sdk", "failed", 0, 1);
  result(old, sdkQwen, "sdk", "ok", 89, 3);
  result(old, restQ8, "rest", "ok", 61);
  result(old, gemma, "rest", "ok", 43);
  result(old, tiny, "openai", "ok", 900);
  const before = {
    results: (old.prepare("SELECT COUNT(*) AS n FROM results").get() as { n: number }).n,
    runs: (old.prepare("SELECT COUNT(*) AS n FROM runs").get() as { n: number }).n,
  };
  assert.equal(
    (old.prepare("SELECT COUNT(*) AS n FROM model_latest").get() as { n: number }).n,
    5,
    "five rows for four variants and tiny-a",
  );
  old.close();

  const store = ResultsStore.open(path);
  try {
    const db = store.db;
    assert.equal(
      (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
      SCHEMA_VERSION,
    );
    const models = db.prepare("SELECT id, model_key, size_bytes FROM models ORDER BY model_key")
      .all().map((r) => [r.model_key, r.size_bytes]);
    assert.deepEqual(models, [
      ["google/gemma-4-26b-a4b@q4_k_m", 17990911801],
      ["qwen/qwen3-4b@q4_k_m", 2497280960],
      ["qwen/qwen3-4b@q8_0", 4280405696],
      ["tiny-a", 4800000],
    ]);
    // Nothing is lost: every result and run is still there, under its variant.
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM results").get() as { n: number }).n, 7);
    assert.deepEqual(
      { ...db.prepare("SELECT COUNT(*) AS results FROM results").get() },
      { results: before.results },
    );
    assert.deepEqual({ ...db.prepare("SELECT runs FROM totals").get() }, { runs: before.runs });
    const q4 = db.prepare(
      `SELECT r.backend, r.status FROM results r JOIN models m ON m.id = r.model_id
       WHERE m.model_key = 'qwen/qwen3-4b@q4_k_m' ORDER BY r.id`,
    ).all().map((r) => `${r.backend}:${r.status}`);
    assert.deepEqual(q4, ["sdk:ok", "rest:ok", "sdk:failed", "sdk:ok"]);
    // identity_latest and the triggers agree with the history.
    assert.deepEqual(
      db.prepare(
        "SELECT model_id, params_hash, machine_key, result_id, ok_results FROM identity_latest " +
          "ORDER BY model_id, params_hash, machine_key",
      ).all().map((r) => ({
        ...r,
      })),
      latestDerived(db),
    );
    const triggers = (db.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name",
    ).all() as { name: string }[]).map((r) => r.name);
    assert.deepEqual(triggers, [...LATEST_TRIGGERS, ...LINE_SUMS_TRIGGERS].sort());
    // What the dashboard shows: four variants; the q4_k_m one under each backend it ran on.
    const stats = dashboardStats(db);
    assert.equal(stats.cached_models, 4);
    assert.equal(stats.total_results, 6);
    assert.deepEqual(resultsTable(db).map((r) => `${r.model_key} ${r.backend}`).sort(), [
      "google/gemma-4-26b-a4b@q4_k_m rest",
      "qwen/qwen3-4b@q4_k_m rest",
      "qwen/qwen3-4b@q4_k_m sdk",
      "qwen/qwen3-4b@q8_0 rest",
      "tiny-a openai",
    ]);
    const picker = comparableModels(db).find((m) => m.model_name === "qwen/qwen3-4b")!;
    assert.equal(picker.entry_count, 4);
    // The intervals stored before are within the domain now.
    const lows = db.prepare("SELECT DISTINCT ttft_ms_ci_low AS v FROM results").all()
      .map((r) => r.v);
    assert.deepEqual(lows, [0]);
    // A new SDK result of the variant lands under its identity too.
    const id = store.beginResult({
      model: {
        model_key: "qwen/qwen3-4b@q4_k_m",
        model_name: "qwen/qwen3-4b",
        quantization: "q4_k_m",
      },
      params_hash: "h-sdk",
      backend: "sdk",
      params: {},
    });
    store.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 90 } });
    assert.equal(store.findCached("qwen/qwen3-4b@q4_k_m", "h-sdk", null)!.id, id);
    assert.equal(dashboardStats(db).cached_models, 4);
  } finally {
    store.close();
  }
});

Deno.test("a model stored only under its model key is renamed to its identity, keeping its id", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "v5.db");
  const old = schema5(path);
  const id = model(old, "mistralai/ministral-3-3b", "Q4_K_M", 2150000000);
  result(old, id, "sdk", "ok", 102);
  model(old, "never/measured", "q8_0", null); // no result: nothing tells its backend, left alone
  old.close();
  const store = ResultsStore.open(path);
  try {
    const rows = store.db.prepare("SELECT id, model_key FROM models ORDER BY id").all()
      .map((r) => [r.id, r.model_key]);
    assert.deepEqual(rows, [[id, "mistralai/ministral-3-3b@q4_k_m"], [id + 1, "never/measured"]]);
    assert.equal(store.latestPerIdentity()[0]!.model_key, "mistralai/ministral-3-3b@q4_k_m");
  } finally {
    store.close();
  }
});
