/**
 * The results table's cache of finished results' figures (lib/store/result_figures.ts, schema
 * 13's `result_edits`): after every kind of write, the table read with the cache kept from
 * before equals the table read from scratch (a new cache), on both backends; and a request after
 * a write that touches no result fetches no result's figures.
 */
import assert from "node:assert/strict";
import { resultsColumns, type ResultsStore } from "../../../lib/store/mod.ts";
import { clearResults } from "../../../lib/store/clear.ts";
import { deleteModel } from "../../../lib/store/dashboard.ts";
import { ResultFiguresCache } from "../../../lib/store/result_figures.ts";
import type { StoreDb } from "../../../lib/store/database.ts";
import { capture } from "./_capture.ts";
import { recordPg } from "./_capture_pg.ts";
import { eachBackend, openOn } from "./_backends.ts";

const MACHINE = {
  id: "machine-a",
  hostname: "box-a",
  os: null,
  arch: null,
  cpu_model: null,
  cpu_cores: null,
  ram_gb: null,
  gpus: [],
  model_server: null,
  model_server_version: null,
};

const model = (key: string) => ({ model_key: key, model_name: key, quantization: "q4" });

/** A finished result of `key` with parameters `hash` at `speed` tok/s; returns its id. */
function addResult(store: ResultsStore, key: string, hash: string, speed: number): number {
  const id = store.beginResult({
    model: model(key),
    params_hash: hash,
    backend: "rest",
    params: hash === "w" ? { workload: { prompt_tokens: [64], gen_tokens: [16] } } : {},
    machine_id: MACHINE.id,
  });
  store.finishResult(id, {
    status: "ok",
    aggregates: {
      tokens_per_sec_mean: speed,
      tokens_per_sec_std: speed / 20,
      tokens_per_sec_n: 5,
      runs_ok: 5,
    },
  });
  return id;
}

/** A store with two variants, three identities, two results each. */
async function seeded(b: Parameters<typeof openOn>[0]) {
  const store = await openOn(b);
  store.recordMachine(MACHINE);
  for (const [key, hash, speed] of [["a", "h", 40], ["a", "w", 30], ["b", "h", 50]] as const) {
    addResult(store, key, hash, speed);
    addResult(store, key, hash, speed * 1.1);
  }
  return store;
}

/** The table read with `cache` equals the one read from scratch; returns it. */
function sameAsFresh(db: StoreDb, cache: ResultFiguresCache, what: string) {
  const kept = resultsColumns(db, cache);
  const fresh = resultsColumns(db, new ResultFiguresCache());
  assert.deepEqual(kept, fresh, what);
  return kept;
}

/** Each kind of write: what it does, and a check of the table after it. */
const WRITES: [string, (store: ResultsStore) => void][] = [
  ["a new result of an identity", (s) => void addResult(s, "a", "h", 47)],
  ["a new identity", (s) => void addResult(s, "c", "h", 20)],
  ["a finished result edited in place", (s) => {
    s.db.prepare(
      "UPDATE results SET tokens_per_sec_mean = 99, tokens_per_sec_std = 1 WHERE id = " +
        "(SELECT MAX(id) FROM results)",
    ).run();
  }],
  ["a result deleted and a new one made (SQLite gives it the same id)", (s) => {
    const { id } = s.db.prepare("SELECT MAX(id) AS id FROM results").get() as { id: number };
    s.db.prepare("DELETE FROM results WHERE id = ?").run(id);
    const again = addResult(s, "b", "h", 12);
    if (s.db.constructor.name === "DatabaseSync") assert.equal(again, Number(id), "reused");
  }],
  ["a variant renamed and its quantization changed", (s) => {
    s.upsertModel({ model_key: "a", model_name: "A renamed", quantization: "q8" });
  }],
  ["a machine's host name changed", (s) => s.recordMachine({ ...MACHINE, hostname: "box-b" })],
  ["a variant deleted", (s) => void deleteModel(s.db, "b")],
  ["the store cleared and filled again", (s) => {
    clearResults(s.db);
    addResult(s, "a", "h", 41);
  }],
  ["a finished grid result split into one result per cell", (s) => {
    const id = s.beginResult({
      model: model("a"),
      params_hash: "grid",
      backend: "rest",
      params: { backend: "rest", load: {} },
    });
    s.addGridCells(id, [{ prompt_tokens: 64, runs: 1 }, { prompt_tokens: 128, runs: 1 }]);
    s.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 33, runs_ok: 2 } });
    // The table reads the grid result whole before it is split in place.
    const warm = new ResultFiguresCache();
    resultsColumns(s.db, warm);
    s.splitGrid(id);
    sameAsFresh(s.db, warm, "after the split");
  }],
];

for (const [what, write] of WRITES) {
  eachBackend(`the results table after ${what} equals the table read from scratch`, async (b) => {
    const store = await seeded(b);
    try {
      const cache = new ResultFiguresCache();
      const before = sameAsFresh(store.db, cache, "before");
      assert.ok(cache.size > 0);
      write(store);
      const after = sameAsFresh(store.db, cache, what);
      assert.notDeepEqual(after, before, "the write changed the table");
    } finally {
      store.close();
    }
  });
}

eachBackend("the cache keeps only the results the table names", async (b) => {
  const store = await seeded(b);
  try {
    const cache = new ResultFiguresCache();
    resultsColumns(store.db, cache);
    assert.equal(cache.size, 6, "three identities, two results each");
    addResult(store, "a", "h", 47);
    resultsColumns(store.db, cache);
    assert.equal(cache.size, 6, "the identity's oldest result is no longer named");
  } finally {
    store.close();
  }
});

/** The statements `fn` runs on `db` (SQLite or PostgreSQL), as text with values. */
function statements(db: StoreDb, fn: (db: StoreDb) => unknown): string[] {
  if (db.constructor.name === "DatabaseSync") {
    const c = capture(db);
    fn(c.db);
    return c.statements.map((s) => s.expanded);
  }
  return recordPg(db, fn);
}

eachBackend("a request after a write to a variant fetches no result's figures", async (b) => {
  const store = await seeded(b);
  try {
    const cache = new ResultFiguresCache();
    resultsColumns(store.db, cache);
    store.db.prepare("UPDATE models SET last_seen = 'later'").run();
    const ran = statements(store.db, (db) => resultsColumns(db, cache));
    assert.equal(ran.length, 1, ran.join("\n"));
    assert.doesNotMatch(ran[0]!, /FROM results/);
    // A new result of an identity: its figures alone (its previous one is kept).
    const id = addResult(store, "a", "h", 47);
    const after = statements(store.db, (db) => resultsColumns(db, cache));
    assert.equal(after.length, 2, after.join("\n"));
    assert.match(after[1]!, new RegExp(`FROM results r[\\s\\S]*'\\[${id}\\]'`));
  } finally {
    store.close();
  }
});
