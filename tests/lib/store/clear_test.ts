import assert from "node:assert/strict";
import { sqliteOf, type StoreDb } from "../../../lib/store/database.ts";
import { join } from "node:path";
import { clearResults, tablesBelow } from "../../../lib/store/clear.ts";
import { clearCache } from "../../../lib/store/dashboard.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { tempEnv } from "../../_helpers.ts";
import { capture } from "./_capture.ts";
import { seedHistory } from "./_history_seed.ts";

const count = (store: StoreDb, table: string, db = sqliteOf(store)) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

/** The schema objects (tables, indexes, triggers, views) with their SQL. */
const schemaOf = (store: StoreDb, db = sqliteOf(store)) =>
  db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name").all()
    .map((r) => ({ ...r }));

const model = (i: number) => ({
  model_key: `org/m${i}@q4_k_m`,
  model_name: `org/m${i}`,
  quantization: "q4_k_m",
});

/** A history with grid cells and load levels beside the results and runs. */
function seeded(): ResultsStore {
  const store = ResultsStore.open(":memory:");
  seedHistory(store.db, { runs: 600, variants: 12 });
  const id = store.beginResult({
    model: model(1),
    params_hash: "h",
    backend: "openai",
    params: {},
  });
  store.addRun(id, { run_index: 0, tokens_per_sec: 10 });
  store.addGridCells(id, [{ prompt_tokens: 128, gen_tokens: 64, runs: 3 }]);
  store.addLoadLevels(id, [{
    mode: "concurrency",
    level: 2,
    requests: 8,
    ok: 8,
    failed: 0,
    duration_ms: 100,
  }]);
  store.finishResult(id, { status: "ok" });
  return store;
}

Deno.test("tablesBelow() lists models and every table hanging off it, children first", () => {
  const store = seeded();
  try {
    const order = tablesBelow(store.db);
    assert.deepEqual(
      [...order].sort(),
      ["grid_cells", "identity_latest", "line_sums", "load_levels", "models", "results", "runs"],
    );
    assert.equal(order.at(-1), "models");
    assert.ok(order.indexOf("runs") < order.indexOf("results"));
    assert.ok(!order.includes("totals"));
  } finally {
    store.close();
  }
});

Deno.test("tablesBelow() follows a reference written with other letter case", () => {
  const store = seeded();
  try {
    store.db.exec(
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, result_id INTEGER REFERENCES Results(id))",
    );
    const order = tablesBelow(store.db);
    assert.ok(order.includes("notes"));
    assert.ok(order.indexOf("notes") < order.indexOf("results"));
  } finally {
    store.close();
  }
});

Deno.test("clearResults() empties the history and leaves a consistent, usable store", () => {
  const store = seeded();
  try {
    const db = store.db;
    const before = schemaOf(db);
    const results = count(db, "results");
    assert.ok(count(db, "runs") > 500 && count(db, "identity_latest") > 0);

    assert.equal(clearResults(db), results);

    for (const t of ["models", "results", "runs", "grid_cells", "load_levels", "identity_latest"]) {
      assert.equal(count(db, t), 0, t);
    }
    assert.deepEqual({ ...db.prepare("SELECT id, runs FROM totals").get() }, { id: 1, runs: 0 });
    // The same tables, indexes, triggers and views, with the same SQL.
    assert.deepEqual(schemaOf(db), before);
    assert.equal(
      (db.prepare("PRAGMA foreign_keys").get() as { foreign_keys: number })
        .foreign_keys,
      1,
    );
    assert.deepEqual(db.prepare("PRAGMA foreign_key_check").all(), []);
    assert.equal(
      (db.prepare("PRAGMA integrity_check").get() as { integrity_check: string })
        .integrity_check,
      "ok",
    );

    // Usable: the triggers keep identity_latest and totals current again, the cascade works again.
    const id = store.beginResult({
      model: model(2),
      params_hash: "h",
      backend: "rest",
      params: {},
    });
    store.addRun(id, { run_index: 0, tokens_per_sec: 12 });
    store.addRun(id, { run_index: 1, tokens_per_sec: 13 });
    store.finishResult(id, { status: "ok" });
    assert.deepEqual({ ...db.prepare("SELECT runs FROM totals").get() }, { runs: 2 });
    assert.deepEqual(
      { ...db.prepare("SELECT result_id, ok_results FROM identity_latest").get() },
      { result_id: id, ok_results: 1 },
    );
    assert.equal(store.latestPerIdentity().length, 1);
    db.exec("DELETE FROM models");
    assert.equal(count(db, "runs"), 0);
    assert.deepEqual({ ...db.prepare("SELECT runs FROM totals").get() }, { runs: 0 });
  } finally {
    store.close();
  }
});

Deno.test("clearResults() of an empty store deletes nothing and keeps it usable", () => {
  const store = ResultsStore.open(":memory:");
  try {
    assert.equal(clearResults(store.db), 0);
    assert.equal(clearResults(store.db), 0);
    const id = store.beginResult({
      model: model(1),
      params_hash: "h",
      backend: "rest",
      params: {},
    });
    store.finishResult(id, { status: "ok" });
    assert.equal(store.latestPerIdentity().length, 1);
  } finally {
    store.close();
  }
});

Deno.test("clearResults() refuses to run inside a transaction and changes nothing", () => {
  const store = seeded();
  try {
    const n = count(store.db, "runs");
    store.db.exec("BEGIN");
    assert.throws(() => clearResults(store.db), /inside a transaction/);
    store.db.exec("ROLLBACK");
    assert.equal(count(store.db, "runs"), n);
  } finally {
    store.close();
  }
});

Deno.test("clearResults() rolls back everything, triggers included, when a delete fails", () => {
  const store = seeded();
  try {
    const db = store.db;
    const before = schemaOf(db);
    const runs = count(db, "runs");
    // A trigger outside the cleared tables that fails the last step, after the deletes.
    db.exec(`CREATE TRIGGER totals_guard BEFORE INSERT ON totals
      BEGIN SELECT RAISE(ABORT, 'kept on purpose'); END;`);
    assert.throws(() => clearResults(db), /kept on purpose/);
    assert.equal(count(db, "runs"), runs);
    db.exec("DROP TRIGGER totals_guard");
    assert.deepEqual(schemaOf(db), before);
    assert.equal(
      (db.prepare("PRAGMA foreign_keys").get() as { foreign_keys: number })
        .foreign_keys,
      1,
    );
  } finally {
    store.close();
  }
});

Deno.test("clearCache() on a file store keeps a full backup and a store another connection reads as empty", async () => {
  await using t = await tempEnv();
  const file = join(t.root, "results.db");
  const store = ResultsStore.open(file);
  const other = ResultsStore.open(file);
  try {
    seedHistory(store.db, { runs: 400, variants: 8 });
    const results = count(store.db, "results");
    const runs = count(store.db, "runs");
    const backupFile = join(t.root, "backup.db");
    assert.equal(await clearCache(store.db, backupFile), results);
    assert.equal(count(other.db, "runs"), 0);
    assert.equal(other.latestPerIdentity().length, 0);
    const copy = ResultsStore.open(backupFile);
    try {
      assert.equal(count(copy.db, "runs"), runs);
      assert.equal(count(copy.db, "results"), results);
    } finally {
      copy.close();
    }
  } finally {
    other.close();
    store.close();
  }
});

Deno.test("clearResults() empties every table page by page, never visiting its rows", () => {
  const store = seeded();
  const replay = seeded();
  try {
    const recorded = capture(store.db);
    clearResults(recorded.db);
    const deletes = recorded.statements.filter((s) => /^DELETE FROM "/.test(s.sql));
    assert.equal(deletes.length, 7);
    // Replayed statement by statement: in the state each DELETE runs in, its program clears the
    // table's pages (SQLite's truncate optimisation) and deletes no single row.
    for (const s of recorded.statements) {
      if (deletes.includes(s)) {
        const ops = (replay.db.prepare(`EXPLAIN ${s.sql}`).all() as { opcode: string }[])
          .map((r) => r.opcode);
        assert.ok(ops.includes("Clear"), `${s.sql}: ${ops.join(" ")}`);
        assert.ok(!ops.includes("Delete") && !ops.includes("Program"), `${s.sql}: ${ops}`);
      }
      if (s.args.length === 0 && !/^(SELECT|PRAGMA foreign_keys$)/.test(s.sql)) {
        replay.db.exec(s.sql);
      }
    }
    assert.equal(count(replay.db, "runs"), 0);
  } finally {
    replay.close();
    store.close();
  }
});
