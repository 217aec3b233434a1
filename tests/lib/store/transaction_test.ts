import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { Statement, StoreDb } from "../../../lib/store/database.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";
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
