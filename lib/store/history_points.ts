/**
 * The points of one model's history, bounded: a page of at most `limit` results before a cursor
 * (newest page first, each point once, every point reachable by following `next`), or every line
 * downsampled to at most `per_line` points for a chart of the whole range (each line cut into
 * ⌊per_line / 4⌋ equal runs of results, each run giving its first, last, slowest and fastest).
 *
 * @module
 */
import { jsonIdsFrom, type SqlNamed, type Statement, type StoreDb } from "./database.ts";
import type { Cell, Row } from "./rows.ts";
import { FINISHED } from "./status.ts";
import { seriesId } from "./history_series.ts";
import { pickedIds } from "./history_sums.ts";

/** One finished result of the history. */
export type HistoryPoint = Row & {
  /** The result's id (the paging cursor counts by it). */
  id: number;
  /** The id of its line in `series`. */
  series: string;
  timestamp: string;
  model_key: string;
  quantization: string | null;
  backend: string;
  speed_tokens_sec: number | null;
};

/** Which points an answer carries. */
export type HistoryWindow =
  | { kind: "page"; limit: number; before: number | null }
  | { kind: "downsampled"; perLine: number };

/** Points of a page by default, and the most a page or a line may hold. */
export const HISTORY_LIMITS = { page: 500, maxPage: 5000, maxPerLine: 5000 } as const;

// point() reads these by position: change both together.
const POINT_COLUMNS = `r.id, r.finished_at AS timestamp, m.model_key, m.quantization, r.backend,
  r.params_hash, r.tokens_per_sec_mean AS speed_tokens_sec, r.tokens_per_sec_p95,
  r.ttft_ms_mean AS ttft, r.total_ms_mean AS gen_time, r.vram_mb, r.tokens_per_sec_per_gb,
  r.context_length, r.num_runs, r.runs_failed AS error_count, r.n_parallel,
  r.parallel_tokens_per_sec, r.tokens_per_sec_std, r.runs_ok, r.machine_id`;

// The variants first (a few rows, CROSS JOIN keeps them the outer loop), then their results
// through the index: never a walk over the whole history.
const MODEL_RESULTS = `models m CROSS JOIN results r INDEXED BY idx_results_status_model
  ON r.status IN ${FINISHED} AND r.model_id = m.id
  WHERE (m.model_name = :name OR m.model_key = :name)`;

type Cells = readonly Cell[];

/**
 * The rows of `sql` as arrays of their columns in the statement's order: SQLite builds them so
 * (`setReturnArrays`), other connections' rows are read in their key order (PostgreSQL keeps the
 * select list's).
 */
function rowArrays(db: StoreDb, sql: string, params: SqlNamed): Cells[] {
  const stmt = db.prepare(sql) as Statement & { setReturnArrays?: (on: boolean) => void };
  if (typeof stmt.setReturnArrays !== "function") {
    return stmt.all(params).map((row) => Object.values(row) as Cell[]);
  }
  stmt.setReturnArrays(true);
  return stmt.all(params) as unknown as Cells[];
}

/**
 * A row of {@linkcode POINT_COLUMNS} (by position) as a point: an object of one fixed shape, the
 * columns in their order, then `series`. A spread of SQLite's null-prototype row objects made a
 * dictionary of each point instead: 3 KiB a point and slow to read and to encode (at 500 points
 * 1.5 MiB and ~3 ms of a request; now 0.6 MiB and ~1 ms).
 */
function point(r: Cells): HistoryPoint {
  return {
    id: r[0] as number,
    timestamp: r[1] as string,
    model_key: r[2] as string,
    quantization: r[3] as string | null,
    backend: r[4] as string,
    params_hash: r[5] ?? null,
    speed_tokens_sec: r[6] as number | null,
    tokens_per_sec_p95: r[7] ?? null,
    ttft: r[8] ?? null,
    gen_time: r[9] ?? null,
    vram_mb: r[10] ?? null,
    tokens_per_sec_per_gb: r[11] ?? null,
    context_length: r[12] ?? null,
    num_runs: r[13] ?? null,
    error_count: r[14] ?? null,
    n_parallel: r[15] ?? null,
    parallel_tokens_per_sec: r[16] ?? null,
    tokens_per_sec_std: r[17] ?? null,
    runs_ok: r[18] ?? null,
    machine_id: r[19] ?? null,
    series: seriesId(r[2], r[4], r[5], r[19]),
  };
}

/**
 * The newest `limit` points older than the result `before` (all when null), oldest first, and
 * the cursor of the page before them (null on the oldest page).
 */
export function historyPage(
  db: StoreDb,
  name: string,
  limit: number,
  before: number | null,
): { history: HistoryPoint[]; next: number | null } {
  // The page's ids first, from the covering index; then the wide rows of those ids alone (sorting
  // the columns of every result of the model took 9 ms at 13 k points, the ids 1 ms).
  const rows = rowArrays(
    db,
    `SELECT ${POINT_COLUMNS}
     FROM (SELECT r.id FROM ${MODEL_RESULTS} AND r.id < :before ORDER BY r.id DESC LIMIT :take)
       AS page CROSS JOIN results r ON r.id = page.id CROSS JOIN models m ON m.id = r.model_id
     ORDER BY r.id DESC`,
    { name, before: before ?? Number.MAX_SAFE_INTEGER, take: limit + 1 },
  );
  const more = rows.length > limit;
  const history = rows.slice(0, limit).reverse().map(point);
  return { history, next: more ? history[0]!.id : null };
}

/** Every line's points, each line downsampled to at most `perLine` points; oldest first. */
export function historyDownsampled(
  db: StoreDb,
  name: string,
  perLine: number,
): HistoryPoint[] {
  const ids = pickedIds(db, name, perLine);
  return rowArrays(
    db,
    `SELECT ${POINT_COLUMNS} FROM ${jsonIdsFrom(db)} CROSS JOIN results r ON r.id = j.value
       CROSS JOIN models m ON m.id = r.model_id ORDER BY r.id`,
    { ids: JSON.stringify(ids) },
  ).map(point);
}
