/**
 * One model's history for the comparison (`GET /api/comparison/{model_name}`) and the models
 * the comparison can show. A result series is one identity: a variant measured through one
 * backend with one set of parameters (the parameter hash: prompt, context, sampling, load,
 * parallelism and workload), so its trend compares like with like (a q4_k_m variant at 42
 * tokens/s alternating with a q8_0 one at 29, or a 64-token prompt with the default one, is no
 * trend "down"). A trend is `up` or `down` only when Welch's t-test finds the newest result's
 * runs significantly faster or slower than the series' first (p < 0.05); else `stable`: no
 * significant change. The figures are computed over every finished result
 * (`history_series.ts`); the points come in a bounded window, a page or every line downsampled
 * (`history_points.ts`), each point once.
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { plain, type Row } from "./rows.ts";
import {
  HISTORY_LIMITS,
  historyDownsampled,
  historyPage,
  type HistoryPoint,
  type HistoryWindow,
} from "./history_points.ts";
import { type HistorySeries, historySeries, type HistoryStats } from "./history_series.ts";

export { HISTORY_LIMITS };
export type { HistoryPoint, HistorySeries, HistoryStats, HistoryWindow };

/** `GET /api/comparison/{model_name}`. */
export interface ModelHistory {
  model_name: string;
  /**
   * The points of the window, oldest first, each once (each names its `series`): a page, or
   * every line downsampled.
   */
  history: HistoryPoint[];
  /** The `before` of the page of older points; null on the oldest page and when downsampled. */
  next: number | null;
  /** Over every finished result (not only the window's); the trend only where the lines agree. */
  stats: HistoryStats;
  /** One per variant, backend and parameter set, in the order of their first result. */
  series: HistorySeries[];
}

/**
 * The history of one model (`model_name` or a variant's `model_key`): its lines and figures over
 * every finished result, and the points of `window`. Null when the model has no finished result.
 * With `machine` (an id; null: an unknown machine), only that machine's lines and their points
 * (a page then holds that machine's points of the window).
 */
export function modelHistory(
  db: StoreDb,
  name: string,
  window: HistoryWindow = { kind: "page", limit: HISTORY_LIMITS.page, before: null },
  machine?: string | null,
): ModelHistory | null {
  const lines = historySeries(db, name, machine);
  if (!lines) return null;
  const points = window.kind === "page"
    ? historyPage(db, name, window.limit, window.before)
    : { history: historyDownsampled(db, name, window.perLine), next: null };
  if (machine !== undefined) {
    const ids = new Set(lines.series.map((s) => s.id));
    points.history = points.history.filter((p) => ids.has(p.series));
  }
  return { model_name: name, ...points, ...lines };
}

/**
 * The models with history, for the comparison picker: the finished results of each model, when
 * its newest and its first one finished (newest and first by result order, as "latest" is
 * everywhere).
 */
export function comparableModels(db: StoreDb): Row[] {
  return db.prepare(
    `SELECT m.model_name, SUM(l.ok_results) AS entry_count, MAX(r.finished_at) AS latest_timestamp,
       MIN((SELECT f.finished_at FROM results f INDEXED BY idx_results_status_model
            WHERE f.status = 'ok' AND f.model_id = l.model_id ORDER BY f.id LIMIT 1))
         AS oldest_timestamp
     FROM identity_latest l CROSS JOIN results r ON r.id = l.result_id
       JOIN models m ON m.id = l.model_id
     GROUP BY m.model_name ORDER BY m.model_name`,
  ).all().map((r) => plain<Row>(r));
}

/** A model variant with finished results, for the comparison picker. */
export interface ComparableVariant {
  model_name: string;
  model_key: string;
  quantization: string | null;
}

/** Every variant with a finished result, by model name then key. */
export function comparableVariants(db: StoreDb): ComparableVariant[] {
  return db.prepare(
    `SELECT DISTINCT m.model_name, m.model_key, m.quantization FROM identity_latest l
       JOIN models m ON m.id = l.model_id ORDER BY m.model_name, m.model_key`,
  ).all().map((r) => plain<ComparableVariant>(r));
}
