import { PG_BASELINE } from "../../../lib/store/pg/schema.ts";
import assert from "node:assert/strict";
import { sqliteOf, type StoreDb } from "../../../lib/store/database.ts";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { createRandom } from "../../../lib/engine/prng.ts";
import { clearCache, deleteModel } from "../../../lib/store/dashboard.ts";
import { ensureColumns, MIGRATIONS, ResultsStore, SCHEMA_VERSION } from "../../../lib/store/mod.ts";
import { FINISHED } from "../../../lib/store/schema.ts";
import { LATEST_TRIGGERS } from "../../../lib/store/latest.ts";
import { LINE_SUMS_TRIGGERS } from "../../../lib/store/line_sums.ts";
import { tempEnv } from "../../_helpers.ts";
import { seedHistory } from "./_history_seed.ts";
import { machineRecord } from "./_machines.ts";

/** identity_latest and totals as derived from the history, and as stored. */
function compare(store: StoreDb): void {
  const db = sqliteOf(store);
  const derived = db.prepare(
    `SELECT model_id, params_hash, COALESCE(machine_id, '') AS machine_key, MAX(id) AS result_id,
       COUNT(*) AS ok_results FROM results WHERE status IN ${FINISHED}
     GROUP BY model_id, params_hash, machine_key ORDER BY model_id, params_hash, machine_key`,
  ).all().map((r) => ({ ...r }));
  const stored = db.prepare(
    `SELECT model_id, params_hash, machine_key, result_id, ok_results FROM identity_latest
     ORDER BY model_id, params_hash, machine_key`,
  ).all().map((r) => ({ ...r }));
  assert.deepEqual(stored, derived);
  const runs = db.prepare("SELECT COUNT(*) AS n FROM runs").get() as { n: number };
  assert.deepEqual({ ...db.prepare("SELECT runs FROM totals").get() }, { runs: runs.n });
}

const model = (i: number) => ({
  model_key: `org/m${i}@q4_k_m`,
  model_name: `org/m${i}`,
  quantization: "q4_k_m",
});

Deno.test("identity_latest and the run total follow every kind of write to the history", () => {
  const store = ResultsStore.open(":memory:");
  const random = createRandom(7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random.next() * xs.length)]!;
  const open: number[] = [];
  for (const id of ["m1", "m2"]) store.recordMachine(machineRecord(id, `host-${id}`));
  const machineOf = () => pick([null, "m1", "m2"]);
  try {
    for (let step = 0; step < 400; step++) {
      const ids = (store.db.prepare("SELECT id FROM results").all() as { id: number }[])
        .map((r) => r.id);
      const op = random.next();
      if (op < 0.3 || ids.length === 0) {
        const id = store.beginResult({
          model: model(Math.floor(random.next() * 6)),
          params_hash: pick(["a", "b"]),
          backend: "rest",
          params: {},
          machine_id: machineOf(),
        });
        store.addRun(id, { run_index: 0, tokens_per_sec: 10 });
        open.push(id);
      } else if (op < 0.6 && open.length > 0) {
        // Results finish out of order, as two benchmarks sharing a database would.
        const id = open.splice(Math.floor(random.next() * open.length), 1)[0]!;
        store.finishResult(id, { status: pick(["ok", "ok", "failed", "stopped"] as const) });
      } else if (op < 0.75) {
        store.db.prepare("UPDATE results SET status = ? WHERE id = ?")
          .run(pick(["ok", "failed", "stopped"]), pick(ids));
      } else if (op < 0.8) {
        store.db.prepare("UPDATE results SET model_id = ? WHERE id = ?")
          .run(store.upsertModel(model(Math.floor(random.next() * 6))), pick(ids));
      } else if (op < 0.85) {
        store.db.prepare("UPDATE results SET params_hash = ? WHERE id = ?")
          .run(pick(["a", "b", "c"]), pick(ids));
      } else if (op < 0.9) {
        store.db.prepare("UPDATE results SET machine_id = ? WHERE id = ?")
          .run(machineOf(), pick(ids));
      } else if (op < 0.95) {
        store.db.prepare("DELETE FROM results WHERE id = ?").run(pick(ids));
      } else {
        deleteModel(store.db, model(Math.floor(random.next() * 6)).model_key);
      }
      compare(store.db);
    }
    assert.ok(
      (store.db.prepare("SELECT COUNT(*) AS n FROM identity_latest").get() as { n: number }).n > 0,
    );
  } finally {
    store.close();
  }
});

Deno.test("clearing the cache empties identity_latest and the run total", async () => {
  await using t = await tempEnv();
  const store = ResultsStore.open(":memory:");
  try {
    seedHistory(store.db, { runs: 500, variants: 10 });
    compare(store.db);
    await clearCache(store.db, join(t.root, "backup.db"));
    compare(store.db);
    assert.equal((store.db.prepare("SELECT runs FROM totals").get() as { runs: number }).runs, 0);
  } finally {
    store.close();
  }
});

Deno.test("a database of schema 3 gets identity_latest and the totals filled from its history", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "v3.db");
  const old = new DatabaseSync(path);
  for (const m of MIGRATIONS.filter((m) => m.version <= 3)) old.exec(m.sql);
  old.exec("PRAGMA user_version = 3");
  ensureColumns(old);
  seedHistory(old, { runs: 800, variants: 12 });
  old.close();

  const store = ResultsStore.open(path);
  try {
    compare(store.db);
    assert.ok(
      (store.db.prepare("SELECT COUNT(*) AS n FROM identity_latest").get() as {
        n: number;
      }).n > 0,
    );
    const triggers = (store.db.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name",
    ).all() as { name: string }[]).map((r) => r.name);
    assert.deepEqual(triggers, [...LATEST_TRIGGERS, ...LINE_SUMS_TRIGGERS].sort());
  } finally {
    store.close();
  }
});

Deno.test("a database of schema 4 gains the grid and load-curve tables and keeps its history", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "v4.db");
  const old = new DatabaseSync(path);
  for (const m of MIGRATIONS.filter((m) => m.version <= 4)) old.exec(m.sql);
  old.exec("PRAGMA user_version = 4");
  ensureColumns(old);
  seedHistory(old, { runs: 300, variants: 5 });
  const before = (old.prepare("SELECT COUNT(*) AS n FROM runs").get() as { n: number }).n;
  old.close();

  const store = ResultsStore.open(path);
  try {
    assert.equal(
      (store.db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
      SCHEMA_VERSION,
    );
    compare(store.db);
    assert.equal(
      (store.db.prepare("SELECT COUNT(*) AS n FROM runs").get() as { n: number }).n,
      before,
    );
    const id = (store.db.prepare("SELECT MAX(id) AS id FROM results").get() as { id: number }).id;
    store.addGridCells(id, [{ prompt_tokens: 128, gen_tokens: 32, runs: 3, pp_tps_mean: 900 }]);
    store.addLoadLevels(id, [
      { mode: "concurrency", level: 2, requests: 8, ok: 8, failed: 0, duration_ms: 1000 },
      { mode: "concurrency", level: 1, requests: 8, ok: 8, failed: 0, duration_ms: 2000 },
    ]);
    assert.deepEqual(store.gridOf(id).map((c) => c.pp_tps_mean), [900]);
    assert.deepEqual(store.loadLevelsOf(id).map((l) => l.level), [1, 2]);
    store.db.prepare("DELETE FROM results WHERE id = ?").run(id);
    assert.equal(store.gridOf(id).length + store.loadLevelsOf(id).length, 0, "cascaded");
    const triggers = (store.db.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name",
    ).all() as { name: string }[]).map((r) => r.name);
    assert.deepEqual(triggers, [...LATEST_TRIGGERS, ...LINE_SUMS_TRIGGERS].sort());
  } finally {
    store.close();
  }
});

Deno.test("schema 8 rebuilds results for 'partial': finished results with failed runs become partial, nothing else moves", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "v7.db");
  const old = new DatabaseSync(path);
  old.exec("PRAGMA foreign_keys = ON");
  for (const m of MIGRATIONS.filter((m) => m.version <= 7)) {
    old.exec(m.sql);
    m.apply?.(old);
  }
  old.exec("PRAGMA user_version = 7");
  ensureColumns(old);
  seedHistory(old, { runs: 400, variants: 6 });
  const count = (db: StoreDb, sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const before = {
    runs: count(old, "SELECT COUNT(*) AS n FROM runs"),
    failedRuns: count(
      old,
      "SELECT COUNT(*) AS n FROM results WHERE status = 'ok' AND runs_failed > 0",
    ),
    clean: count(old, "SELECT COUNT(*) AS n FROM results WHERE status = 'ok' AND runs_failed = 0"),
  };
  assert.ok(before.failedRuns > 0 && before.clean > 0, "the seed has both kinds");
  old.close();

  const store = ResultsStore.open(path);
  try {
    assert.equal(count(store.db, "SELECT COUNT(*) AS n FROM runs"), before.runs, "no run lost");
    assert.equal(
      count(store.db, "SELECT COUNT(*) AS n FROM results WHERE status = 'partial'"),
      before.failedRuns,
    );
    assert.equal(
      count(store.db, "SELECT COUNT(*) AS n FROM results WHERE status = 'ok'"),
      before.clean,
    );
    compare(store.db);
    const triggers = (store.db.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name",
    ).all() as { name: string }[]).map((r) => r.name);
    assert.deepEqual(triggers, [...LATEST_TRIGGERS, ...LINE_SUMS_TRIGGERS].sort());
    const named = (type: string) =>
      (store.db.prepare(
        "SELECT name FROM sqlite_schema WHERE type = ? AND tbl_name = 'results' AND sql IS NOT NULL",
      ).all(type) as { name: string }[]).map((r) => r.name).sort();
    assert.deepEqual(named("index"), [
      "idx_results_finished",
      "idx_results_machine_identity",
      "idx_results_model_hash",
      "idx_results_status_model",
    ]);
    assert.deepEqual(
      (store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'view'").all() as {
        name: string;
      }[]).map((r) => r.name),
      ["latest_results"],
    );
    assert.deepEqual(store.db.prepare("PRAGMA foreign_key_check").all(), []);
    assert.equal(
      (store.db.prepare("PRAGMA foreign_keys").get() as { foreign_keys: number }).foreign_keys,
      1,
    );
    // Deleting a result still cascades to its runs: the rebuilt table is the runs' parent.
    const id = (store.db.prepare("SELECT id FROM results LIMIT 1").get() as { id: number }).id;
    store.db.prepare("DELETE FROM results WHERE id = ?").run(id);
    assert.equal(count(store.db, `SELECT COUNT(*) AS n FROM runs WHERE result_id = ${id}`), 0);
  } finally {
    store.close();
  }
});

Deno.test("every migration from the PostgreSQL baseline on carries its PostgreSQL text", () => {
  const later = MIGRATIONS.filter((m) => m.version >= PG_BASELINE);
  assert.ok(later.length >= 1);
  for (const m of later) assert.equal(typeof m.pg, "string", `migration ${m.version}`);
});
