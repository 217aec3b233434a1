/**
 * Opening the store's database, SQLite (WAL, busy timeout, foreign keys) or PostgreSQL (a
 * `postgres://` location, pg/open.ts), then the forward migrations and the automatic addition of
 * missing optional columns, the same list for both. A store that cannot be opened (damaged,
 * locked by another program, in a folder that cannot be written, a server that cannot be
 * reached) fails with one sentence saying what to do.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { AppError, ConflictError, messageOf, StorageError } from "../error.ts";
import { columnsOf, isPostgres, type StoreDb } from "./database.ts";
import { withoutForeignKeys } from "./rebuild.ts";
import { MIGRATIONS, OPTIONAL_COLUMNS, SCHEMA_VERSION } from "./schema.ts";
import { PG_BASELINE, PG_VERSION_TABLE_SQL, pgColumnType } from "./pg/schema.ts";
import { isPostgresUrl, openPostgres, pgOpenError } from "./pg/open.ts";
import { transaction, WRITE_LOCK_SQL } from "./transaction.ts";

export { transaction } from "./transaction.ts";

/** The database's schema version (0: a new store). */
export function userVersion(db: StoreDb): number {
  if (isPostgres(db)) {
    const table = db.prepare("SELECT to_regclass('schema_version') IS NOT NULL AS found").get();
    if (!table?.found) return 0;
    const row = db.prepare("SELECT version FROM schema_version WHERE id = 1").get();
    return Number(row?.version ?? 0);
  }
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number };
  return row.user_version;
}

function setVersion(db: StoreDb, version: number): void {
  if (!isPostgres(db)) return void db.exec(`PRAGMA user_version = ${version}`);
  db.exec(PG_VERSION_TABLE_SQL);
  db.prepare(
    `INSERT INTO schema_version (id, version) VALUES (1, ?)
     ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
  ).run(version);
}

/**
 * Holds PostgreSQL's migration lock until the end of the transaction (SQLite: its write lock).
 * A lock on a table, not an advisory one: taking it makes the server read the catalog changes
 * other sessions committed meanwhile, so the tables a migration the lock waited for made are
 * seen (after an advisory lock the session's catalog cache may still miss them).
 */
function lockSchema(db: StoreDb): void {
  if (isPostgres(db)) db.exec("LOCK TABLE schema_version IN SHARE ROW EXCLUSIVE MODE");
}

/**
 * PostgreSQL: takes the store's write lock (transaction.ts) after the migration lock, before a
 * schema change: DDL that waited for a writer's table lock while holding another table the
 * writer needs next would deadlock with it. A store older than `store_changes` has no writers.
 */
function lockWrites(db: StoreDb): void {
  if (!isPostgres(db)) return;
  const found = db.prepare("SELECT to_regclass('store_changes') IS NOT NULL AS found").get();
  if (found?.found) db.exec(WRITE_LOCK_SQL);
}

/**
 * Applies every migration newer than the database's `user_version`, each in a transaction. The
 * version is read again inside each transaction: another process opening the same new store at
 * the same moment (the dashboard and a benchmark) may have applied it while this one waited.
 */
export function migrate(db: StoreDb): number[] {
  const applied: number[] = [];
  const current = userVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `Cannot open the results database: its schema version ${current} is newer than this ` +
        `tool's ${SCHEMA_VERSION}`,
    );
  }
  const pg = isPostgres(db);
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    // A PostgreSQL store starts at the baseline: the versions before it shaped SQLite stores.
    if (pg && m.version < PG_BASELINE) continue;
    if (pg && m.pg === undefined) {
      throw new Error(`Migration ${m.version} has no PostgreSQL text`);
    }
    const step = () =>
      transaction(db, () => {
        lockSchema(db);
        if (userVersion(db) >= m.version) return false;
        lockWrites(db);
        if (pg) {
          if (m.pg) db.exec(m.pg);
          m.pgApply?.(db);
        } else {
          if (m.sql) db.exec(m.sql);
          m.apply?.(db as DatabaseSync);
        }
        setVersion(db, m.version);
        return true;
      }, { writeLock: false });
    const done = m.foreignKeysOff && !pg ? withoutForeignKeys(db as DatabaseSync, step) : step();
    if (done) applied.push(m.version);
  }
  return applied;
}

/** Adds missing optional columns; returns the `table.column` names added. */
export function ensureColumns(db: StoreDb): string[] {
  const pg = isPostgres(db);
  return transaction(db, () => {
    const added: string[] = []; // inside: a transaction run again starts afresh
    lockSchema(db);
    for (const [table, columns] of Object.entries(OPTIONAL_COLUMNS)) {
      const names = columnsOf(db, table);
      if (names.length === 0) continue; // a table an older schema does not have yet
      const have = new Set(names);
      const missing = Object.entries(columns).filter(([name]) => !have.has(name));
      if (missing.length === 0) continue;
      if (added.length === 0) lockWrites(db);
      if (pg) {
        // One statement per table: a round trip each, and the table locked once.
        db.exec(
          `ALTER TABLE ${table} ${
            missing.map(([name, type]) => `ADD COLUMN IF NOT EXISTS ${name} ${pgColumnType(type)}`)
              .join(", ")
          }`,
        );
      } else {
        for (const [name, type] of missing) {
          db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
        }
      }
      added.push(...missing.map(([name]) => `${table}.${name}`));
    }
    return added;
  }, { writeLock: false });
}

/**
 * The error a user sees when the store at `path` cannot be opened: damaged, locked, unwritable,
 * or newer than this tool. Other errors are returned unchanged.
 */
export function storeOpenError(path: string, err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (isPostgresUrl(path)) return pgOpenError(path, err);
  const text = messageOf(err);
  if (/not a database|malformed|encrypted/i.test(text)) {
    return new StorageError(
      `The results store ${path} is damaged or not a SQLite database: move it aside and run ` +
        `again (a new, empty store is then created)`,
      { code: "store_corrupt", cause: err },
    );
  }
  if (/locked|busy/i.test(text)) {
    return new ConflictError(
      `The results store ${path} is locked by another program (a benchmark or the dashboard ` +
        `still writing?): let it finish or stop it, then run again`,
      { code: "store_locked", cause: err },
    );
  }
  if (/unable to open|read-?only|permission|disk i\/o/i.test(text)) {
    return new StorageError(
      `Cannot open the results store ${path} (${text}): make its folder writable, or choose ` +
        `another data folder with LOCALBENCH_DATA_DIR`,
      { code: "store_unavailable", cause: err },
    );
  }
  if (/schema version/.test(text)) {
    return new StorageError(`${text}: update localbench`, {
      code: "store_too_new",
      cause: err,
    });
  }
  return err;
}

/** Options of {@linkcode openDatabase}. */
export interface OpenOptions {
  /** How long to wait for another program's lock. @default 10_000 */
  busyTimeoutMs?: number;
}

/**
 * Opens (creating if needed) and migrates the store at `path`: a SQLite file (`:memory:` for
 * tests) or a `postgres://` URL.
 */
export function openDatabase(path: string, options: OpenOptions = {}): StoreDb {
  if (isPostgresUrl(path)) return openPostgresStore(path);
  let db: DatabaseSync;
  const busyMs = options.busyTimeoutMs ?? 10_000;
  try {
    db = new DatabaseSync(path, { timeout: busyMs });
  } catch (err) {
    throw storeOpenError(path, err);
  }
  for (let attempt = 1;; attempt++) {
    const started = performance.now();
    try {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec("PRAGMA foreign_keys = ON");
      migrate(db);
      ensureColumns(db);
      return db;
    } catch (err) {
      // A new store that other processes open at the same moment: switching it to WAL (or a
      // read snapshot another process's migration made stale) answers BUSY at once, without the
      // busy timeout. Each step is idempotent, so it is tried again, a few times; a lock that
      // outlasted the busy timeout is another program's, and said at once.
      const quick = performance.now() - started < busyMs / 2;
      if (quick && /database is locked/.test(messageOf(err)) && attempt < OPEN_ATTEMPTS) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50 * attempt);
        continue;
      }
      db.close();
      throw storeOpenError(path, err);
    }
  }
}

/** Connects to the PostgreSQL store at `url`, migrates it and adds missing columns. */
function openPostgresStore(url: string): StoreDb {
  let db: StoreDb | null = null;
  try {
    db = openPostgres(url);
    migrate(db);
    ensureColumns(db);
    return db;
  } catch (err) {
    db?.close();
    throw storeOpenError(url, err);
  }
}

/** How many times opening a store is tried when another process holds it for a moment. */
const OPEN_ATTEMPTS = 5;

const MISSING_COLUMN =
  /has no column named (\w+)|no such column: (\w+)|column "(\w+)"(?: of relation "\w+")? does not exist/;

/**
 * Runs a write; when it fails because a column is missing, runs the column migration once more
 * and retries once (seed "Errors" 2).
 */
export function withColumnRetry<T>(db: StoreDb, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (!(err instanceof Error) || !MISSING_COLUMN.test(err.message)) throw err;
    ensureColumns(db);
    return write();
  }
}
