/**
 * The narrow database interface the store uses: the part of `node:sqlite`'s `DatabaseSync` it
 * needs (prepare → get/all/run, exec, isTransaction, isOpen, close). `DatabaseSync` is the SQLite
 * implementation as it is; `PgDatabase` (pg/database.ts) the PostgreSQL one. Where the SQL of
 * the two means different things, the store writes each dialect's text ({@linkcode dialectOf});
 * the mechanical differences (placeholders, planner hints) are translated (pg/translate.ts).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** A value bound to a placeholder. */
export type SqlParam = string | number | bigint | null | Uint8Array;

/** Named parameters (`:name`). */
export type SqlNamed = Record<string, SqlParam>;

/** A prepared statement. */
export interface Statement {
  /** The first row, or undefined. */
  get(...params: SqlParam[]): Record<string, unknown> | undefined;
  get(named: SqlNamed): Record<string, unknown> | undefined;
  /** Every row. */
  all(...params: SqlParam[]): Record<string, unknown>[];
  all(named: SqlNamed): Record<string, unknown>[];
  /** Runs a change (the new row's id: `RETURNING id` with `get`, see rows.ts `insertRow`). */
  run(...params: SqlParam[]): { changes: number | bigint };
  run(named: SqlNamed): { changes: number | bigint };
}

/** The connection the store uses. */
export interface StoreDb {
  prepare(sql: string): Statement;
  /** Runs a script of statements without parameters. */
  exec(sql: string): void;
  readonly isTransaction: boolean;
  readonly isOpen: boolean;
  close(): void;
}

/** The SQL dialect of a connection. */
export type Dialect = "sqlite" | "postgres";

/** The dialect of `db`: PostgreSQL connections say so; anything else is SQLite. */
export function dialectOf(db: StoreDb): Dialect {
  return (db as { dialect?: Dialect }).dialect === "postgres" ? "postgres" : "sqlite";
}

/** Whether `db` is a PostgreSQL connection. */
export const isPostgres = (db: StoreDb): boolean => dialectOf(db) === "postgres";

/** The column names of `table` (none when it does not exist). */
export function columnsOf(db: StoreDb, table: string): string[] {
  const rows = isPostgres(db)
    ? db.prepare(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
    ).all(table)
    : db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table);
  return rows.map((r) => String(r.name));
}

/**
 * A FROM item `j` with one row per id of a JSON array bound as `:ids`, its id in `j.value`
 * (SQLite's `json_each`; PostgreSQL's `json_array_elements_text`, as numbers).
 */
export function jsonIdsFrom(db: StoreDb): string {
  return isPostgres(db)
    ? "(SELECT CAST(value AS BIGINT) AS value FROM json_array_elements_text(CAST(:ids AS json))) j"
    : "json_each(:ids) j";
}

/** `db` as SQLite's own connection, for what only SQLite has (backups, plans, functions). */
export function sqliteOf(db: StoreDb): DatabaseSync {
  if (isPostgres(db)) throw new Error("This needs a SQLite store, not PostgreSQL");
  return db as DatabaseSync;
}
