/**
 * One model's history for the comparison (`GET /api/comparison/{model_name}`) and the models
 * the comparison can show. A result series is one identity: a variant measured through one
 * backend with one set of parameters (the parameter hash: prompt, context, sampling, load,
 * parallelism and workload), so its trend compares like with like (a q4_k_m variant at 42
 * tokens/s alternating with a q8_0 one at 29, or a 64-token prompt with the default one, is no
 * trend "down"). A trend is `up` or `down` only when Welch's t-test finds the newest result's
 * runs significantly faster or slower than the series' first (p < 0.05); else `stable`: no
 * significant change.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { sampleSummary, welchSummary } from "../student_t.ts";
import { plain, type Row } from "./rows.ts";
import { FINISHED } from "./status.ts";
import { workloadText } from "./identity.ts";

/** One finished result of the history. */
export type HistoryPoint = Row & {
  timestamp: string;
  model_key: string;
  quantization: string | null;
  backend: string;
  speed_tokens_sec: number | null;
};

/** Speed figures and the trend of some points. */
export interface HistoryStats {
  min_speed: number;
  max_speed: number;
  avg_speed: number;
  /** Finished results. */
  total_runs: number;
  first_run: string | null;
  last_run: string | null;
  /**
   * Least-squares slope of the speed over the result index, in tokens/s per result; null for
   * the whole model when it has several series (their slopes are in `series`).
   */
  slope: number | null;
  /** `mixed` when the series of the model do not share one trend. */
  trend: "up" | "down" | "stable" | "mixed";
}

/** One identity: a variant measured through one backend with one set of parameters. */
export interface HistorySeries {
  /** `<model_key> · <backend> · <params_hash>`: unique within the answer. */
  id: string;
  model_key: string;
  quantization: string | null;
  backend: string;
  params_hash: string;
  /** The workload in words (`prompt 64,256 tokens · 128 out`), or null for the configured one. */
  workload: string | null;
  /** Its points, oldest first. */
  history: HistoryPoint[];
  stats: HistoryStats;
}

/** `GET /api/comparison/{model_name}`. */
export interface ModelHistory {
  model_name: string;
  /** Every point, oldest first (each names its `model_key` and `backend`). */
  history: HistoryPoint[];
  /** Over every point; the trend only where the series agree. */
  stats: HistoryStats;
  /** One per variant and backend, in the order of their first result. */
  series: HistorySeries[];
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** The newest point against the first: up or down when Welch's test says so (p < 0.05). */
function welchTrend(points: readonly HistoryPoint[]): "up" | "down" | "stable" {
  const summary = (p: HistoryPoint | undefined) =>
    p ? sampleSummary(p.speed_tokens_sec, p.tokens_per_sec_std, p.runs_ok) : null;
  const measured = points.filter((p) => typeof p.speed_tokens_sec === "number");
  const first = summary(measured[0]);
  const last = summary(measured.at(-1));
  if (measured.length < 2 || !first || !last) return "stable";
  const test = welchSummary(last, first);
  if (test === null || test.p >= 0.05) return "stable";
  return last.mean > first.mean ? "up" : "down";
}

/** Speed statistics and the least-squares trend of points in result order. */
function statsOf(points: readonly HistoryPoint[]): HistoryStats {
  const measured = points.filter((p) => typeof p.speed_tokens_sec === "number");
  const ys = measured.map((p) => p.speed_tokens_sec as number);
  const avg = ys.length ? ys.reduce((a, b) => a + b, 0) / ys.length : 0;
  // x is the result's position among all the points (1-based), as the history is numbered.
  const xs = measured.map((p) => points.indexOf(p) + 1);
  const n = ys.length;
  const sx = xs.reduce((a, b) => a + b, 0);
  const sxx = xs.reduce((a, b) => a + b * b, 0);
  const sxy = xs.reduce((a, x, i) => a + x * ys[i]!, 0);
  const den = n * sxx - sx * sx;
  const slope = n > 1 && den !== 0 ? (n * sxy - sx * ys.reduce((a, b) => a + b, 0)) / den : 0;
  const threshold = Math.max(avg * 0.01, 1e-9);
  const times = measured.map((p) => p.timestamp).sort();
  return {
    min_speed: ys.length ? round2(Math.min(...ys)) : 0,
    max_speed: ys.length ? round2(Math.max(...ys)) : 0,
    avg_speed: round2(avg),
    total_runs: points.length,
    first_run: times[0] ?? null,
    last_run: times.at(-1) ?? null,
    slope: Math.round(slope * 10_000) / 10_000,
    // The slope is what the line does; up or down is said only where the runs show it.
    trend: slope > threshold || slope < -threshold ? welchTrend(points) : "stable",
  };
}

/**
 * The finished results of one model (`model_name` or a variant's `model_key`), oldest first,
 * with min/max/mean, and one series per variant and backend with its own trend. Null when the
 * model has no finished result.
 */
export function modelHistory(db: DatabaseSync, name: string): ModelHistory | null {
  // The variants first (a few rows, CROSS JOIN keeps them the outer loop), then their results
  // through the index: never a walk over the whole history.
  const history = db.prepare(
    `SELECT r.finished_at AS timestamp, m.model_key, m.quantization, r.backend, r.params_hash,
       r.tokens_per_sec_mean AS speed_tokens_sec, r.tokens_per_sec_p95, r.ttft_ms_mean AS ttft,
       r.total_ms_mean AS gen_time, r.vram_mb, r.tokens_per_sec_per_gb, r.context_length,
       r.num_runs, r.runs_failed AS error_count, r.n_parallel, r.parallel_tokens_per_sec,
       r.tokens_per_sec_std, r.runs_ok, r.params_json
     FROM models m CROSS JOIN results r INDEXED BY idx_results_status_model
       ON r.status IN ${FINISHED} AND r.model_id = m.id
     WHERE m.model_name = :name OR m.model_key = :name ORDER BY r.id`,
  ).all({ name }).map((r) => plain<HistoryPoint>(r));
  if (history.length === 0) return null;
  const groups = Map.groupBy(
    history,
    (p) => `${p.model_key} · ${p.backend} · ${p.params_hash}`,
  );
  const series = [...groups].map(([id, points]): HistorySeries => ({
    id,
    model_key: points[0]!.model_key,
    quantization: points[0]!.quantization,
    backend: points[0]!.backend,
    params_hash: String(points[0]!.params_hash),
    workload: workloadText(points[0]!.params_json),
    history: points,
    stats: statsOf(points),
  }));
  // The parameters stay in the series; the points keep their own figures only.
  for (const p of history) delete p.params_json;
  const stats = statsOf(history);
  if (series.length > 1) {
    const trends = new Set(series.map((s) => s.stats.trend));
    stats.trend = trends.size === 1 ? series[0]!.stats.trend : "mixed";
    stats.slope = null;
  }
  return { model_name: name, history, stats, series };
}

/**
 * The models with history, for the comparison picker: the finished results of each model, when
 * its newest and its first one finished (newest and first by result order, as "latest" is
 * everywhere).
 */
export function comparableModels(db: DatabaseSync): Row[] {
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
export function comparableVariants(db: DatabaseSync): ComparableVariant[] {
  return db.prepare(
    `SELECT DISTINCT m.model_name, m.model_key, m.quantization FROM identity_latest l
       JOIN models m ON m.id = l.model_id ORDER BY m.model_name, m.model_key`,
  ).all().map((r) => plain<ComparableVariant>(r));
}
