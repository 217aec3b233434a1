/**
 * The points of one model's history, bounded: a page of at most `limit` results before a cursor
 * (newest page first, each point once, every point reachable by following `next`), or every line
 * downsampled to at most `per_line` points for a chart of the whole range (each line cut into
 * ⌊per_line / 4⌋ equal runs of results, each run giving its first, last, slowest and fastest).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { plain, type Row } from "./rows.ts";
import { FINISHED } from "./schema.ts";
import { seriesId } from "./history_series.ts";

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
export const HISTORY_LIMITS = { page: 1000, maxPage: 5000, maxPerLine: 5000 } as const;

const POINT_COLUMNS = `r.id, r.finished_at AS timestamp, m.model_key, m.quantization, r.backend,
  r.params_hash, r.tokens_per_sec_mean AS speed_tokens_sec, r.tokens_per_sec_p95,
  r.ttft_ms_mean AS ttft, r.total_ms_mean AS gen_time, r.vram_mb, r.tokens_per_sec_per_gb,
  r.context_length, r.num_runs, r.runs_failed AS error_count, r.n_parallel,
  r.parallel_tokens_per_sec, r.tokens_per_sec_std, r.runs_ok`;

// The variants first (a few rows, CROSS JOIN keeps them the outer loop), then their results
// through the index: never a walk over the whole history.
const MODEL_RESULTS = `models m CROSS JOIN results r INDEXED BY idx_results_status_model
  ON r.status IN ${FINISHED} AND r.model_id = m.id
  WHERE (m.model_name = :name OR m.model_key = :name)`;

function point(row: unknown): HistoryPoint {
  const p = plain<HistoryPoint>(row);
  p.series = seriesId(p.model_key, p.backend, p.params_hash);
  return p;
}

/**
 * The newest `limit` points older than the result `before` (all when null), oldest first, and
 * the cursor of the page before them (null on the oldest page).
 */
export function historyPage(
  db: DatabaseSync,
  name: string,
  limit: number,
  before: number | null,
): { history: HistoryPoint[]; next: number | null } {
  const rows = db.prepare(
    `SELECT ${POINT_COLUMNS} FROM ${MODEL_RESULTS} AND r.id < :before
     ORDER BY r.id DESC LIMIT :take`,
  ).all({ name, before: before ?? Number.MAX_SAFE_INTEGER, take: limit + 1 });
  const more = rows.length > limit;
  const history = rows.slice(0, limit).reverse().map(point);
  return { history, next: more ? history[0]!.id : null };
}

/**
 * The positions kept of a line of `ys.length` points when it holds more than `max`: the line cut
 * into ⌊max / 4⌋ equal runs, each giving its first, last, smallest and largest value (nulls
 * are neither), in line order; every position when the line is short enough.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { downsampleLine } from "./history_points.ts";
 * assert.deepEqual(downsampleLine([5, 1, 9, 2, 3, 8, 7, 6], 4), [0, 1, 2, 7]);
 * assert.deepEqual(downsampleLine([1, 2], 4), [0, 1]);
 * ```
 */
export function downsampleLine(ys: readonly (number | null)[], max: number): number[] {
  const n = ys.length;
  if (n <= max) return ys.map((_, i) => i);
  const runs = Math.max(1, Math.floor(max / 4));
  const kept: number[] = [];
  for (let b = 0; b < runs; b++) {
    const start = Math.floor(b * n / runs);
    const end = Math.floor((b + 1) * n / runs) - 1;
    let lo = -1;
    let hi = -1;
    for (let i = start; i <= end; i++) {
      const y = ys[i];
      if (y === null || y === undefined) continue;
      if (lo < 0 || y < ys[lo]!) lo = i;
      if (hi < 0 || y > ys[hi]!) hi = i;
    }
    kept.push(...new Set([start, lo, hi, end].filter((i) => i >= 0).sort((a, b) => a - b)));
  }
  return kept;
}

/** Every line's points, each line downsampled to at most `perLine` points; oldest first. */
export function historyDownsampled(
  db: DatabaseSync,
  name: string,
  perLine: number,
): HistoryPoint[] {
  const lines = new Map<string, { ids: number[]; ys: (number | null)[] }>();
  const rows = db.prepare(
    `SELECT r.id, r.model_id, r.backend, r.params_hash, r.tokens_per_sec_mean AS y
     FROM ${MODEL_RESULTS} ORDER BY r.id`,
  ).iterate({ name }) as Iterable<{ id: number; model_id: number; y: number | null } & Row>;
  for (const r of rows) {
    const key = `${r.model_id}\u0000${r.backend}\u0000${r.params_hash}`;
    let line = lines.get(key);
    if (!line) lines.set(key, line = { ids: [], ys: [] });
    line.ids.push(r.id);
    line.ys.push(r.y);
  }
  const ids = [...lines.values()].flatMap((l) =>
    downsampleLine(l.ys, perLine).map((i) => l.ids[i]!)
  );
  return db.prepare(
    `SELECT ${POINT_COLUMNS} FROM json_each(:ids) j CROSS JOIN results r ON r.id = j.value
       CROSS JOIN models m ON m.id = r.model_id ORDER BY r.id`,
  ).all({ ids: JSON.stringify(ids) }).map(point);
}
