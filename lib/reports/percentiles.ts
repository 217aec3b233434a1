/**
 * The latency percentiles a report shows (`--percentiles 50,90,95,99,99.9`): which ones, and
 * their values for a result or a load level. A value is the stored column where the store keeps
 * that percentile (p50 as the median, p90, p95, p99), else it is computed from the stored
 * requests (`runs`) with lib/stats.ts's quantile over the same samples the stored columns come
 * from, so nothing is approximated. A result without stored requests (an imported one) has only
 * its stored columns.
 *
 * @module
 */
import { measuredRunsOf, percentilesOf } from "../bench/mod.ts";
import {
  gapsOf,
  LEVEL_PERCENTILE_METRICS,
  levelPercentile,
  levelPercentiles,
  percentileLabel,
  type Row,
} from "../store/mod.ts";
import { isPlainObject } from "../shared/json_object.ts";
import type { ReportEntry } from "./model.ts";

/** What a report shows without `--percentiles` and without a stored choice. */
export const DEFAULT_PERCENTILES: readonly number[] = [50, 90, 99];

export { LEVEL_PERCENTILE_METRICS, levelPercentile, percentileLabel };

/** The latency metrics of a result: label and store column prefix. */
export type LatencyMetric = "ttft_ms" | "tpot_ms" | "itl_ms" | "total_ms";

/** The percentiles kept with a result's workload (`workload_json.percentiles`), or null. */
export function storedPercentiles(entry: ReportEntry): number[] | null {
  const list = isPlainObject(entry.workload) ? entry.workload.percentiles : null;
  if (!Array.isArray(list)) return null;
  const ps = list.filter((p): p is number => typeof p === "number" && p > 0 && p < 100);
  return ps.length ? ps : null;
}

/**
 * The percentiles of a report: those given (`--percentiles`, with a benchmark or `--export-only`);
 * else every percentile stored with its results (the union, ascending); else p50, p90, p99.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportPercentiles } from "./percentiles.ts";
 * assert.deepEqual(reportPercentiles([], [99.9, 50]), [50, 99.9]);
 * assert.deepEqual(reportPercentiles([], null), [50, 90, 99]);
 * ```
 */
export function reportPercentiles(
  entries: readonly ReportEntry[],
  given: readonly number[] | null | undefined,
): number[] {
  const chosen = given?.length ? given : entries.flatMap((e) => storedPercentiles(e) ?? []);
  const list = chosen.length ? chosen : DEFAULT_PERCENTILES;
  return [...new Set(list)].sort((a, b) => a - b);
}

/** The store column that keeps percentile `p` of a result's metric, if any. */
function resultColumn(metric: LatencyMetric, p: number): string | null {
  const suffix = ({ 50: "median", 90: "p90", 95: "p95", 99: "p99" } as Record<number, string>)[p];
  return suffix ? `${metric}_${suffix}` : null;
}

/** The samples of a result's metric: its measured runs' values (ITL: every gap, pooled). */
function resultSamples(entry: ReportEntry, metric: LatencyMetric): unknown[] {
  const runs = measuredRunsOf(entry.runs);
  return metric === "itl_ms" ? runs.flatMap((r) => gapsOf(r)) : runs.map((r) => r[metric]);
}

const finite = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) ? v : null;

/**
 * Percentile `p` (0–100) of a result's latency metric in ms: the stored column when it holds a
 * value, else computed from the result's measured runs; null when neither has one.
 */
export function latencyPercentile(
  entry: ReportEntry,
  metric: LatencyMetric,
  p: number,
): number | null {
  const column = resultColumn(metric, p);
  const stored = column === null ? null : finite(entry.row[column]);
  if (stored !== null) return stored;
  return percentilesOf(resultSamples(entry, metric), [p])[0] ?? null;
}

/**
 * A result's chosen percentiles as JSON: `{ ttft_ms: { p50: …, "p99.9": … }, … }`.
 */
export function latencyPercentilesJson(
  entry: ReportEntry,
  percentiles: readonly number[],
): Record<string, Record<string, number | null>> {
  const out: Record<string, Record<string, number | null>> = {};
  for (const metric of ["ttft_ms", "tpot_ms", "itl_ms", "total_ms"] as const) {
    out[metric] = Object.fromEntries(
      percentiles.map((p) => [percentileLabel(p), latencyPercentile(entry, metric, p)]),
    );
  }
  return out;
}

/** A load level's chosen percentiles as JSON: `{ latency_ms: { p50: … }, ttft_ms, tpot_ms }`. */
export function levelPercentilesJson(
  level: Row,
  runs: readonly Row[],
  percentiles: readonly number[],
): Record<string, Record<string, number | null>> {
  return levelPercentiles(level, runs, percentiles);
}
