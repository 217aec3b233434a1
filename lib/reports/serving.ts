/**
 * What the serving sections of the reports show, shared by the HTML and PDF reports: the latency
 * distributions (TTFT, TPOT, ITL and request latency as mean, p50, p90, p99).
 *
 * @module
 */
import { fixed } from "./format.ts";
import { num, type ReportEntry } from "./model.ts";

/** The latency metrics of the reports: label and store column prefix. */
export const LATENCY_ROWS: readonly (readonly [string, string])[] = [
  ["TTFT", "ttft_ms"],
  ["TPOT", "tpot_ms"],
  ["ITL", "itl_ms"],
  ["Latency", "total_ms"],
];

/** The statistics of each latency metric: label and store column suffix (p50 is the median). */
export const LATENCY_STATS: readonly (readonly [string, string])[] = [
  ["mean", "mean"],
  ["p50", "median"],
  ["p90", "p90"],
  ["p99", "p99"],
];

/** The latency columns: `[head, column]` pairs in display order. */
export function latencyColumns(): [string, string][] {
  return LATENCY_ROWS.flatMap(([label, metric]) =>
    LATENCY_STATS.map((
      [stat, suffix],
    ): [string, string] => [`${label} ${stat}`, `${metric}_${suffix}`])
  );
}

/** Whether any entry has latency distributions (results stored before them have none). */
export function hasLatency(entries: readonly ReportEntry[]): boolean {
  return entries.some((e) => num(e, "tpot_ms_mean") !== null || num(e, "ttft_ms_p90") !== null);
}

/** A latency cell (ms, two decimals below 10 ms, one above). */
export function msText(v: number | null): string {
  return v === null ? "–" : fixed(v, v < 10 ? 2 : 1);
}
