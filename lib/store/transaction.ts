/**
 * The store's write transactions: one lock order for every writer, and a bounded retry.
 *
 * SQLite: `BEGIN IMMEDIATE` takes the database's one write lock at once, so writers queue at
 * their start and never deadlock.
 *
 * PostgreSQL locks rows, not the database. Every write to a counted table bumps the one row of
 * `store_changes` (a statement trigger, pg/schema.ts; the dashboard's cache key, snapshot.ts),
 * and the row triggers of `results` and `runs` lock rows of `identity_latest`, `line_sums` and
 * `totals`. A transaction of several statements would take `store_changes` with its first
 * statement and the other rows later, while a concurrent one-statement write takes its rows
 * first and `store_changes` at its end: opposite orders, a deadlock (an import and a run stored
 * meanwhile, marking a lost agent's results interrupted while it finishes one of them:
 * tests/e2e/store_postgres_lock_order_test.ts). So every write transaction takes the `store_changes`
 * row first, at `BEGIN` ({@linkcode WRITE_LOCK_SQL}): the store's write lock, as SQLite's. A
 * writer that waits holds nothing yet, so no two of the store's writers can wait for each other.
 * It costs no throughput the triggers did not already cost: a writer held that row from its
 * first statement to its commit before too. The schema's transactions (db.ts) take the
 * migration lock and then this one, before their DDL.
 *
 * A transaction that still meets a deadlock (40P01, e.g. with a writer outside localbench that
 * takes the rows in another order) or a serialization failure (40001) was rolled back whole by
 * the server: it is run again, up to {@linkcode TRANSACTION_ATTEMPTS} times in all, so the run it
 * stores is not lost. `fn` must therefore be repeatable: it keeps its state inside.
 *
 * @module
 */
import { isPostgres, type StoreDb } from "./database.ts";

/** PostgreSQL: the store's write lock, taken at the start of every write transaction. */
export const WRITE_LOCK_SQL = "SELECT n FROM store_changes WHERE id = 1 FOR UPDATE";

/** How many times a transaction is run when the server aborts it for a deadlock. */
export const TRANSACTION_ATTEMPTS = 4;

/** SQLSTATEs after which the whole transaction is run again. */
const RETRIED = new Set(["40P01", "40001"]);

/** Options of {@linkcode transaction}. */
export interface TransactionOptions {
  /**
   * PostgreSQL: take the store's write lock at `BEGIN`. Off only for the schema's own
   * transactions, which take the migration lock first (db.ts). @default true
   */
  writeLock?: boolean;
  /** Waits between attempts (tests). @default a short blocking sleep */
  sleep?: (ms: number) => void;
}

/** Whether the server aborted the transaction for a deadlock or a serialization failure. */
export function isRetryable(err: unknown): boolean {
  const state = (err as { sqlState?: unknown } | null)?.sqlState;
  return typeof state === "string" && RETRIED.has(state);
}

const blockingSleep = (ms: number) => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * Runs `fn` inside a write transaction (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: `BEGIN` and the
 * store's write lock); commits, or rolls back and rethrows on error. A deadlock or serialization
 * failure runs it again, a bounded number of times.
 */
export function transaction<T>(db: StoreDb, fn: () => T, options: TransactionOptions = {}): T {
  const pg = isPostgres(db);
  // One round trip: a failure of the lock leaves the transaction open for the rollback below.
  const begin = !pg
    ? "BEGIN IMMEDIATE"
    : options.writeLock === false
    ? "BEGIN"
    : `BEGIN; ${WRITE_LOCK_SQL}`;
  const sleep = options.sleep ?? blockingSleep;
  for (let attempt = 1;; attempt++) {
    try {
      db.exec(begin);
      const out = fn();
      db.exec("COMMIT");
      return out;
    } catch (err) {
      if (db.isTransaction) db.exec("ROLLBACK");
      if (!pg || !isRetryable(err) || attempt >= TRANSACTION_ATTEMPTS) throw err;
      // A little later, and not in step with the other party.
      sleep(10 * attempt + Math.floor(Math.random() * 10 * attempt));
    }
  }
}
