/**
 * The lines of one model's history and their figures, computed over every finished result from
 * the sums of one pass (`history_sums.ts`): a line is one identity, a variant measured through
 * one backend with one set of parameters. Its least-squares slope comes from Σx, Σx², Σy, Σxy
 * (x: the result's position in the line); its trend from Welch's t-test between the line's
 * first and newest measured result, the two rows read by their id.
 *
 * @module
 */
import { jsonIdsFrom, type StoreDb } from "./database.ts";
import { sampleSummary, welchSummary } from "../student_t.ts";
import { type LineSums, lineSums } from "./history_sums.ts";
import { workloadText } from "./identity.ts";
import { machineLabels } from "./machines.ts";

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

/** One identity: a variant measured through one backend with one set of parameters on a machine. */
export interface HistorySeries {
  /** `<model_key> · <backend> · <params_hash>[ · <machine_id>]`: unique within the answer. */
  id: string;
  model_key: string;
  quantization: string | null;
  backend: string;
  params_hash: string;
  /** The machine the line ran on (null: unknown) and its name (host name, unique here). */
  machine_id: string | null;
  machine_name: string | null;
  /** The workload in words (`prompt 64,256 tokens · 128 out`), or null for the configured one. */
  workload: string | null;
  /** Over every finished result of the line. */
  stats: HistoryStats;
  /** The newest parallel round of the line (`n_parallel` > 1), or null. */
  newest_parallel: { tokens_per_sec: number; n_parallel: number } | null;
}

/** The columns of a result the figures need beyond the sums. */
interface Endpoint {
  id: number;
  model_key: string;
  quantization: string | null;
  mean: unknown;
  sd: unknown;
  runs_ok: unknown;
  params_json: unknown;
  n_parallel: number;
  parallel: number;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** The id of a line: model key, backend, parameter hash and (when known) the machine's id. */
export function seriesId(
  modelKey: unknown,
  backend: unknown,
  paramsHash: unknown,
  machineId?: unknown,
): string {
  const base = `${modelKey} · ${backend} · ${paramsHash}`;
  return typeof machineId === "string" && machineId !== "" ? `${base} · ${machineId}` : base;
}

/** The newest point against the first: up or down when Welch's test says so (p < 0.05). */
function welchTrend(first?: Endpoint, last?: Endpoint): "up" | "down" | "stable" {
  const summary = (p?: Endpoint) => p ? sampleSummary(p.mean, p.sd, p.runs_ok) : null;
  const [a, b] = [summary(first), summary(last)];
  if (!a || !b || first === last) return "stable";
  const test = welchSummary(b, a);
  if (test === null || test.p >= 0.05) return "stable";
  return b.mean > a.mean ? "up" : "down";
}

/** Speed statistics and the least-squares trend of one line, from its sums. */
function statsOf(s: LineSums, ends: Map<number, Endpoint>): HistoryStats {
  const { n } = s;
  const avg = n ? s.sy / n : 0;
  const den = n * s.sxx - s.sx ** 2;
  const slope = n > 1 && den !== 0 ? (n * s.sxy - s.sx * s.sy) / den : 0;
  const threshold = Math.max(avg * 0.01, 1e-9);
  const first = ends.get(s.first_measured ?? -1);
  const last = ends.get(s.last_measured ?? -1);
  return {
    min_speed: n ? round2(s.min_y!) : 0,
    max_speed: n ? round2(s.max_y!) : 0,
    avg_speed: round2(avg),
    total_runs: s.total,
    first_run: s.first_run,
    last_run: s.last_run,
    slope: Math.round(slope * 10_000) / 10_000,
    // The slope is what the line does; up or down is said only where the runs show it.
    trend: slope > threshold || slope < -threshold ? welchTrend(first, last) : "stable",
  };
}

/** The model's figures over every line; the trend only where the lines agree. */
function modelStats(sums: LineSums[], series: HistorySeries[]): HistoryStats {
  if (series.length === 1) return { ...series[0]!.stats };
  const measured = sums.filter((s) => s.n > 0);
  const n = measured.reduce((a, s) => a + s.n, 0);
  const times = (k: "first_run" | "last_run") =>
    measured.map((s) => s[k]).filter((t) => t !== null).sort();
  const trends = new Set(series.map((s) => s.stats.trend));
  return {
    min_speed: n ? round2(Math.min(...measured.map((s) => s.min_y!))) : 0,
    max_speed: n ? round2(Math.max(...measured.map((s) => s.max_y!))) : 0,
    avg_speed: n ? round2(measured.reduce((a, s) => a + s.sy, 0) / n) : 0,
    total_runs: sums.reduce((a, s) => a + s.total, 0),
    first_run: times("first_run")[0] ?? null,
    last_run: times("last_run").at(-1) ?? null,
    slope: null,
    trend: trends.size === 1 ? series[0]!.stats.trend : "mixed",
  };
}

/**
 * The lines of a model (`model_name` or a variant's `model_key`) in the order of their first
 * result, each with its figures over all its results, and the model's figures; null when the
 * model has no finished result. With `machine`, only the lines of that machine (its id; null: the
 * results of an unknown machine), the model's figures over them.
 */
export function historySeries(
  db: StoreDb,
  name: string,
  machine?: string | null,
): { series: HistorySeries[]; stats: HistoryStats } | null {
  const all = lineSums(db, name);
  const sums = machine === undefined ? all : all.filter((s) => s.machine_id === machine);
  if (sums.length === 0) return null;
  const ids = sums.flatMap((s) => [s.first_id, s.first_measured, s.last_measured, s.parallel_id]);
  const ends = new Map(
    (db.prepare(
      `SELECT r.id, m.model_key, m.quantization, r.tokens_per_sec_mean AS mean,
         r.tokens_per_sec_std AS sd, COALESCE(r.tokens_per_sec_n, r.runs_ok) AS runs_ok, r.params_json, r.n_parallel,
         r.parallel_tokens_per_sec AS parallel
       FROM ${jsonIdsFrom(db)} CROSS JOIN results r ON r.id = j.value
         CROSS JOIN models m ON m.id = r.model_id`,
    ).all({ ids: JSON.stringify(ids.filter((id) => id !== null)) }) as unknown as Endpoint[])
      .map((e) => [e.id, e]),
  );
  const names = machineLabels(db);
  const series = sums.map((s): HistorySeries => {
    const p = ends.get(s.parallel_id ?? -1);
    const first = ends.get(s.first_id)!;
    return {
      id: seriesId(first.model_key, s.backend, s.params_hash, s.machine_id),
      model_key: first.model_key,
      quantization: first.quantization,
      backend: s.backend,
      params_hash: String(s.params_hash),
      machine_id: s.machine_id,
      machine_name: s.machine_id === null ? null : names.get(s.machine_id) ?? s.machine_id,
      workload: workloadText(first.params_json),
      stats: statsOf(s, ends),
      newest_parallel: p ? { tokens_per_sec: p.parallel, n_parallel: p.n_parallel } : null,
    };
  });
  return { series, stats: modelStats(sums, series) };
}
