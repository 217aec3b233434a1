/**
 * Opening the SQLite database: WAL, busy timeout, foreign keys, forward migrations and the
 * automatic addition of missing optional columns. A store that cannot be opened (damaged, locked
 * by another program, in a folder that cannot be written) fails with one sentence saying what to do.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { AppError, ConflictError, messageOf, StorageError } from "../error.ts";
import { withoutForeignKeys } from "./rebuild.ts";
import { MIGRATIONS, OPTIONAL_COLUMNS, SCHEMA_VERSION } from "./schema.ts";

/** Runs `fn` inside `BEGIN IMMEDIATE … COMMIT`; rolls back and rethrows on error. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = fn();
    db.exec("COMMIT");
    return out;
  } catch (err) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw err;
  }
}

/** The database's schema version. */
export function userVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number };
  return row.user_version;
}

/**
 * Applies every migration newer than the database's `user_version`, each in a transaction. The
 * version is read again inside each transaction: another process opening the same new store at
 * the same moment (the dashboard and a benchmark) may have applied it while this one waited.
 */
export function migrate(db: DatabaseSync): number[] {
  const applied: number[] = [];
  const current = userVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `Cannot open the results database: its schema version ${current} is newer than this ` +
        `tool's ${SCHEMA_VERSION}`,
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    const step = () =>
      transaction(db, () => {
        if (userVersion(db) >= m.version) return false;
        if (m.sql) db.exec(m.sql);
        m.apply?.(db);
        db.exec(`PRAGMA user_version = ${m.version}`);
        return true;
      });
    const done = m.foreignKeysOff ? withoutForeignKeys(db, step) : step();
    if (done) applied.push(m.version);
  }
  return applied;
}

/** Adds missing optional columns; returns the `table.column` names added. */
export function ensureColumns(db: DatabaseSync): string[] {
  const added: string[] = [];
  transaction(db, () => {
    for (const [table, columns] of Object.entries(OPTIONAL_COLUMNS)) {
      const rows = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
      if (rows.length === 0) continue; // a table an older schema does not have yet
      const have = new Set(rows.map((r) => r.name));
      for (const [name, type] of Object.entries(columns)) {
        if (have.has(name)) continue;
        db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
        added.push(`${table}.${name}`);
      }
    }
  });
  return added;
}

/**
 * The error a user sees when the store at `path` cannot be opened: damaged, locked, unwritable,
 * or newer than this tool. Other errors are returned unchanged.
 */
export function storeOpenError(path: string, err: unknown): unknown {
  if (err instanceof AppError) return err;
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

/** Opens (creating if needed) and migrates the database at `path` (`:memory:` for tests). */
export function openDatabase(path: string, options: OpenOptions = {}): DatabaseSync {
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

/** How many times opening a store is tried when another process holds it for a moment. */
const OPEN_ATTEMPTS = 5;

const MISSING_COLUMN = /has no column named (\w+)|no such column: (\w+)/;

/**
 * Runs a write; when it fails because a column is missing, runs the column migration once more
 * and retries once (seed "Errors" 2).
 */
export function withColumnRetry<T>(db: DatabaseSync, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (!(err instanceof Error) || !MISSING_COLUMN.test(err.message)) throw err;
    ensureColumns(db);
    return write();
  }
}
