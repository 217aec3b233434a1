/**
 * Opening the SQLite database: WAL, busy timeout, foreign keys, forward migrations and the
 * automatic addition of missing optional columns.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
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

/** Applies every migration newer than the database's `user_version`, each in a transaction. */
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
    transaction(db, () => {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
    });
    applied.push(m.version);
  }
  return applied;
}

/** Adds missing optional columns; returns the `table.column` names added. */
export function ensureColumns(db: DatabaseSync): string[] {
  const added: string[] = [];
  transaction(db, () => {
    for (const [table, columns] of Object.entries(OPTIONAL_COLUMNS)) {
      const rows = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
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

/** Opens (creating if needed) and migrates the database at `path` (`:memory:` for tests). */
export function openDatabase(path: string): DatabaseSync {
  const db = new DatabaseSync(path, { timeout: 10_000 });
  try {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    migrate(db);
    ensureColumns(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

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
