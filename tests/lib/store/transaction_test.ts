import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { Statement, StoreDb } from "../../../lib/store/database.ts";
import { copyStore, deleteModel, ResultsStore, storeImported } from "../../../lib/store/mod.ts";
import { clearResults } from "../../../lib/store/clear.ts";
import type { PgDatabase } from "../../../lib/store/pg/database.ts";
import { machineRecord } from "./_machines.ts";
import {
  isRetryable,
  transaction,
  TRANSACTION_ATTEMPTS,
  WRITE_LOCK_SQL,
} from "../../../lib/store/transaction.ts";
import { PgError } from "../../../lib/store/pg/bridge.ts";
import { testPostgres } from "../../_postgres.ts";
import { deadlockVictim } from "./pg/_interleave.ts";

/** A PostgreSQL connection that records what it is sent (no server). */
class RecordingDb implements StoreDb {
  readonly dialect = "postgres";
  readonly sent: string[] = [];
  isTransaction = false;
  readonly isOpen = true;

  prepare(): Statement {
    throw new Error("not used");
  }

  exec(sql: string): void {
    this.sent.push(sql);
    if (sql.startsWith("BEGIN")) this.isTransaction = true;
    if (sql === "COMMIT" || sql === "ROLLBACK") this.isTransaction = false;
  }

  close(): void {}
}

const deadlock = () => new PgError("deadlock detected", "40P01");
const noSleep = () => {};

Deno.test("a PostgreSQL write transaction takes the store's write lock at its start", () => {
  const db = new RecordingDb();
  assert.equal(transaction(db, () => 7, { sleep: noSleep }), 7);
  assert.deepEqual(db.sent, [`BEGIN; ${WRITE_LOCK_SQL}`, "COMMIT"]);
});

Deno.test("a transaction the server aborts for a deadlock is run again and commits", () => {
  const db = new RecordingDb();
  const waits: number[] = [];
  let calls = 0;
  const out = transaction(db, () => {
    if (++calls === 1) throw deadlock();
    return "stored";
  }, { sleep: (ms) => waits.push(ms) });
  assert.equal(out, "stored");
  assert.equal(calls, 2);
  assert.equal(waits.length, 1);
  const begin = `BEGIN; ${WRITE_LOCK_SQL}`;
  assert.deepEqual(db.sent, [begin, "ROLLBACK", begin, "COMMIT"]);
});

Deno.test("a serialization failure is run again too", () => {
  const db = new RecordingDb();
  let calls = 0;
  transaction(db, () => {
    if (++calls === 1) throw new PgError("could not serialize access", "40001");
  }, { sleep: noSleep });
  assert.equal(calls, 2);
});

Deno.test("a deadlock that keeps coming ends the transaction after a bounded number of attempts", () => {
  const db = new RecordingDb();
  let calls = 0;
  assert.throws(
    () =>
      transaction(db, () => {
        calls++;
        throw deadlock();
      }, { sleep: noSleep }),
    (err) => err instanceof PgError && err.sqlState === "40P01",
  );
  assert.equal(calls, TRANSACTION_ATTEMPTS);
  assert.equal(db.isTransaction, false, "rolled back");
});

Deno.test("any other failure rolls back once and is not run again", () => {
  const db = new RecordingDb();
  let calls = 0;
  assert.throws(() =>
    transaction(db, () => {
      calls++;
      throw new PgError("duplicate key", "23505");
    }, { sleep: noSleep }), /duplicate key/);
  assert.equal(calls, 1);
  assert.deepEqual(db.sent.slice(1), ["ROLLBACK"]);
  assert.equal(isRetryable(new Error("plain")), false);
});

Deno.test("a schema transaction begins without the write lock", () => {
  const db = new RecordingDb();
  transaction(db, () => {}, { writeLock: false });
  assert.deepEqual(db.sent, ["BEGIN", "COMMIT"]);
});

Deno.test("SQLite begins IMMEDIATE and never runs a transaction again", () => {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec("CREATE TABLE t (x INTEGER)");
    let calls = 0;
    assert.throws(() =>
      transaction(db, () => {
        calls++;
        db.exec("INSERT INTO t VALUES (1)");
        throw Object.assign(new Error("looks like a deadlock"), { sqlState: "40P01" });
      }), /looks like a deadlock/);
    assert.equal(calls, 1);
    assert.equal(db.prepare("SELECT COUNT(*) AS n FROM t").get()!.n, 0, "rolled back");
    assert.equal(db.isTransaction, false);
  } finally {
    db.close();
  }
});

Deno.test(
  "a benchmark's finished result chosen as a deadlock's victim is stored by running it again",
  { sanitizeResources: false, sanitizeOps: false },
  async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    const store = ResultsStore.open(url);
    const start = () =>
      store.beginResult({
        model: { model_key: "m", model_name: "m", quantization: "q" },
        params_hash: "h",
        backend: "rest",
        params: {},
      });
    store.finishResult(start(), { status: "ok", aggregates: { tokens_per_sec_mean: 1 } });
    const running = start();
    store.close();
    // The test holds the identity's row of identity_latest, which finishing the result updates
    // (a trigger), and then asks for the result's row, which the finishing write holds.
    const seen = await deadlockVictim(
      server,
      url,
      { op: "finishResult", resultId: running },
      "SELECT 1 FROM localbench.identity_latest FOR UPDATE",
      `SELECT 1 FROM localbench.results WHERE id = ${running} FOR UPDATE`,
    );
    assert.equal(seen.deadlocks, 1, "the server detected the deadlock");
    assert.deepEqual(seen.outcome, { ok: null }, JSON.stringify(seen));
    const after = ResultsStore.open(url);
    try {
      const row = after.finishedResults([running])[0];
      assert.equal(row?.status, "ok");
      assert.equal(after.latestPerIdentity()[0]?.id, running);
    } finally {
      after.close();
    }
  },
);

/**
 * The statements sent to the server, grouped by transaction: each write (INSERT, UPDATE, DELETE,
 * TRUNCATE) with the `BEGIN` of its transaction (null: none).
 */
function writesOf(sent: string[]): { begin: string | null; write: string }[] {
  const out: { begin: string | null; write: string }[] = [];
  let begin: string | null = null;
  for (const sql of sent) {
    const head = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
    if (head === "BEGIN") begin = sql;
    else if (head === "COMMIT" || head === "ROLLBACK") begin = null;
    else if (/^(INSERT|UPDATE|DELETE|TRUNCATE)$/.test(head ?? "")) out.push({ begin, write: sql });
  }
  return out;
}

Deno.test(
  "every write the store makes on PostgreSQL is in a transaction that took the write lock first",
  { sanitizeResources: false, sanitizeOps: false },
  async () => {
    const url = await (await testPostgres()).createDatabase();
    const store = ResultsStore.open(url, { owner: "elsewhere/1:1" });
    const sent: string[] = [];
    const bridge = (store.db as PgDatabase).bridge;
    const query = bridge.query.bind(bridge);
    bridge.query = (sql, params) => (sent.push(sql), query(sql, params));
    const source = ResultsStore.open(":memory:");
    try {
      const model = { model_key: "m@q", model_name: "m", quantization: "q" };
      store.recordMachine(machineRecord("a1", "desk"));
      store.upsertModel(model);
      const begin = () =>
        store.beginResult({
          model,
          params_hash: "h",
          backend: "rest",
          params: {},
          machine_id: "a1",
        });
      const id = begin();
      store.addRun(id, { run_index: 0, tokens_per_sec: 5 });
      store.addGridCells(id, [{ prompt_tokens: 8, gen_tokens: 4, runs: 1 }]);
      store.addLoadLevels(id, [{
        mode: "concurrency",
        level: 1,
        requests: 1,
        ok: 1,
        failed: 0,
        duration_ms: 10,
      }]);
      store.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 5 } });
      store.splitGrid(id);
      begin();
      store.interruptOwner("elsewhere/1:1");
      storeImported(store, [{
        import_hash: "x",
        model: { model_key: "i@q", model_name: "i", quantization: "q" },
        backend: "llama-bench",
        params_hash: "i",
        params: {},
        measured_at: null,
        status: "ok",
        num_runs: 1,
        runs: [{ run_index: 0, tokens_per_sec: 3 }],
        aggregates: { tokens_per_sec_mean: 3 },
      }]);
      const other = source.beginResult({
        model: { model_key: "c@q", model_name: "c", quantization: "q" },
        params_hash: "c",
        backend: "rest",
        params: {},
      });
      source.finishResult(other, { status: "ok" });
      copyStore(source.db, store.db);
      deleteModel(store.db, "i@q");
      clearResults(store.db);
      const writes = writesOf(sent);
      assert.ok(writes.length >= 15, `${writes.length} writes seen`);
      const unlocked = writes.filter((w) => w.begin !== `BEGIN; ${WRITE_LOCK_SQL}`);
      assert.deepEqual(unlocked, [], String(writes.length));
    } finally {
      source.close();
      store.close();
    }
  },
);
