/**
 * The aggregates stored with a result, computed from its measured runs: for each metric of
 * {@linkcode AGGREGATED_METRICS} the summary columns (mean, median, p95, min, max, std, the 95 %
 * interval, cv), the latency percentiles, inter-token latencies pooled over the runs, and the
 * speed per GiB and per billion parameters. The runs are the store's own columns, so the same
 * function serves a benchmark as it ends and a migration that splits a stored result.
 *
 * @module
 */
import { POSITIVE, quantile, summarize, summaryColumns } from "../stats.ts";
import type { Row } from "./rows.ts";
import { AGGREGATED_METRICS, LATENCY_PERCENTILES } from "./metric_columns.ts";

/** A measured run's figures, as stored in `runs` (a metric may be missing or null). */
export type RunFigures = object;

/** A run's figure by column name (null when missing). */
function num(run: RunFigures, column: string): number | null {
  const v = (run as Record<string, unknown>)[column];
  return typeof v === "number" ? v : null;
}

/** The inter-token gaps stored with a run, or none. */
export function gapsOf(run: RunFigures): number[] {
  const itl = (run as { itl_json?: unknown }).itl_json;
  if (typeof itl !== "string") return [];
  try {
    const v = JSON.parse(itl);
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : [];
  } catch {
    return [];
  }
}

/** The run metrics aggregated per model: the store's aggregated columns (ITL pooled apart). */
const AGGREGATED = AGGREGATED_METRICS.filter((m) => m !== "itl_ms");

/** The latency percentile columns (`<metric>_p90`, `<metric>_p99`) of the given samples. */
export function percentileColumns(metric: string, values: readonly (number | null)[]): Row {
  const sorted = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v))
    .sort((a, b) => a - b);
  const out: Row = {};
  for (const [suffix, q] of LATENCY_PERCENTILES) out[`${metric}_${suffix}`] = quantile(sorted, q);
  return out;
}

/** Aggregate store columns over the successful runs of a model. */
export function aggregateRuns(
  runs: readonly RunFigures[],
  sizeGiB: number | null,
  paramsB: number | null,
): Row {
  const out: Row = {};
  for (const metric of AGGREGATED) {
    Object.assign(
      out,
      summaryColumns(metric, summarize(runs.map((r) => num(r, metric)), POSITIVE)),
    );
  }
  const gaps = runs.flatMap((r) => gapsOf(r));
  Object.assign(out, summaryColumns("itl_ms", summarize(gaps, POSITIVE)));
  Object.assign(out, percentileColumns("itl_ms", gaps));
  for (const metric of ["ttft_ms", "tpot_ms", "total_ms"] as const) {
    Object.assign(out, percentileColumns(metric, runs.map((r) => num(r, metric))));
  }
  // The runs that kept a decode speed (a burst without the server's figure is left out): the n
  // of Welch's test on this result.
  out.tokens_per_sec_n = runs.filter((r) => num(r, "tokens_per_sec") !== null).length;
  const mean = out.tokens_per_sec_mean as number | null;
  out.tokens_in = summarize(runs.map((r) => num(r, "tokens_in"))).mean;
  out.tokens_out = summarize(runs.map((r) => num(r, "tokens_out"))).mean;
  out.tokens_per_sec_per_gb = mean !== null && sizeGiB ? mean / sizeGiB : null;
  out.tokens_per_sec_per_billion_params = mean !== null && paramsB ? mean / paramsB : null;
  return out;
}
