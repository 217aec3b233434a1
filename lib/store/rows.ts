/**
 * Row types of the results database and a small INSERT/UPDATE builder.
 *
 * @module
 */
import type { SqlParam, StoreDb } from "./database.ts";

/** A value stored in a column. */
export type Cell = string | number | null;

/** A row as a column → value map. */
export type Row = Record<string, Cell>;

/** Metadata of one model variant (`key@quant` is its own model). */
export interface ModelRecord {
  /** Variant key, e.g. `qwen/qwen3-4b@q4_k_m`. */
  model_key: string;
  /** Base key without the quantization, e.g. `qwen/qwen3-4b`. */
  model_name: string;
  quantization: string | null;
  architecture?: string | null;
  params_size?: string | null;
  size_bytes?: number | null;
  max_context_length?: number | null;
  format?: string | null;
  has_vision?: boolean;
  has_tools?: boolean;
}

/** What starts a result row (status `running`). */
export interface ResultStart {
  model: ModelRecord;
  params_hash: string;
  backend: string;
  /** Every parameter used (prompt, context, sampling, load, n_parallel...), stored as JSON. */
  params: Record<string, unknown>;
  prompt?: string;
  context_length?: number;
  num_runs?: number;
  n_parallel?: number;
  /** The machine it runs on (`machines.id`, recorded first); null or missing: unknown. */
  machine_id?: string | null;
  /** The machine's description as captured at run time (JSON). */
  system_json?: string | null;
}

/** A measured run: `run_index` plus metric columns (see schema `OPTIONAL_COLUMNS.runs`). */
export type RunRecord = { run_index: number } & Row;

/** How a result ends. */
export interface ResultFinish {
  status: "ok" | "partial" | "failed" | "stopped";
  error?: string | null;
  /** Aggregate columns (see schema `OPTIONAL_COLUMNS.results`). */
  aggregates?: Row;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

function columnsOf(row: Row): string[] {
  const cols = Object.keys(row);
  for (const c of cols) {
    if (!IDENT.test(c)) throw new Error(`Cannot write column '${c}': not a valid column name`);
  }
  return cols;
}

/** Inserts `row` into `table` and returns the new row id. */
export function insertRow(db: StoreDb, table: string, row: Row): number {
  const cols = columnsOf(row);
  const sql = `INSERT INTO ${table} (${cols.join(", ")}) VALUES (${
    cols.map(() => "?").join(", ")
  }) RETURNING id`;
  return Number(db.prepare(sql).get(...cols.map((c) => row[c] as SqlParam))!.id);
}

/** Updates the row `id` of `table` with the given columns. */
export function updateRow(db: StoreDb, table: string, id: number, row: Row): void {
  const cols = columnsOf(row);
  if (cols.length === 0) return;
  const sql = `UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`;
  db.prepare(sql).run(...cols.map((c) => row[c] as SqlParam), id);
}

/** Converts a null-prototype SQLite row into a plain object. */
export function plain<T>(row: unknown): T {
  return { ...(row as object) } as T;
}
