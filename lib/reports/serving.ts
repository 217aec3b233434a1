/**
 * What the serving sections of the reports show, shared by the HTML and PDF reports: the latency
 * distributions (TTFT, TPOT, ITL and request latency as mean and the report's percentiles), the
 * parallel rounds, the controlled workload's grid and the load curves.
 *
 * @module
 */
import { gridCells as tableGridCells } from "../bench/mod.ts";
import type { Row } from "../store/mod.ts";
import { fixed } from "../shared/format.ts";
import { num, type ReportEntry } from "./model.ts";
import {
  type LatencyMetric,
  latencyPercentile,
  LEVEL_PERCENTILE_METRICS,
  levelPercentile,
  percentileLabel,
} from "./percentiles.ts";

/** The latency metrics of the reports: label and store column prefix. */
export const LATENCY_ROWS: readonly (readonly [string, LatencyMetric])[] = [
  ["TTFT", "ttft_ms"],
  ["TPOT", "tpot_ms"],
  ["ITL", "itl_ms"],
  ["Latency", "total_ms"],
];

/** One statistic of a latency metric: its label and its value (ms) for an entry. */
export interface LatencyStat {
  label: string;
  value: (e: ReportEntry) => number | null;
}

/** The statistics of a latency metric: the mean, then each of the report's percentiles. */
export function latencyStats(metric: LatencyMetric, percentiles: readonly number[]): LatencyStat[] {
  return [
    { label: "mean", value: (e) => num(e, `${metric}_mean`) },
    ...percentiles.map((p) => ({
      label: percentileLabel(p),
      value: (e: ReportEntry) => latencyPercentile(e, metric, p),
    })),
  ];
}

/** Whether any entry has latency distributions (results stored before them have none). */
export function hasLatency(entries: readonly ReportEntry[]): boolean {
  return entries.some((e) => num(e, "tpot_ms_mean") !== null || num(e, "ttft_ms_p90") !== null);
}

/** A latency cell (ms, two decimals below 10 ms, one above). */
export function msText(v: number | null): string {
  return v === null ? "–" : fixed(v, v < 10 ? 2 : 1);
}

/** Whether an entry has parallel rounds (`--n-parallel N` above 1, REST and OpenAI backends). */
export function isParallel(e: ReportEntry): boolean {
  return (num(e, "n_parallel") ?? 1) > 1 && num(e, "parallel_tokens_per_sec") !== null;
}

/** The heads of {@linkcode parallelCells}. */
export const PARALLEL_HEADS = [
  "Streams",
  "Total tok/s",
  "× one stream",
  "Latency mean ms",
  "Latency p95 ms",
  "Requests OK",
];

/**
 * The parallel rounds of an entry as report cells: streams, total output tokens/s, how many
 * times one stream's end-to-end speed, request latency mean and p95, requests that succeeded.
 */
export function parallelCells(e: ReportEntry): string[] {
  const total = num(e, "parallel_tokens_per_sec");
  const one = num(e, "e2e_tokens_per_sec_mean");
  // The rounds' requests (a load curve's requests are runs too, with their load mode).
  const requests = e.runs.filter((r) =>
    typeof r.parallel === "number" && r.parallel > 1 && (r.load_mode ?? null) === null
  );
  const ok = requests.filter((r) => (r.status ?? "ok") === "ok").length;
  return [
    String(num(e, "n_parallel") ?? "–"),
    fixed(total, 1),
    total !== null && one !== null && one > 0 ? `${fixed(total / one, 2)}×` : "–",
    fixed(num(e, "parallel_latency_ms_mean"), 0),
    fixed(num(e, "parallel_latency_ms_p95"), 0),
    requests.length ? `${ok}/${requests.length}` : "–",
  ];
}

/** The parallel rounds explained, under their tables. */
export const PARALLEL_NOTE =
  "After the sequential runs, as many rounds as runs of N requests at once. Total tok/s: the " +
  "output tokens of a round ÷ its wall time, averaged over the rounds; × one stream: that ÷ the " +
  "sequential end-to-end tokens/s. Latency: request sent → end of its stream.";

/** One grid cell as report cells: test, pp ± std, tg ± std, prompt, output, runs. */
export function gridCells(c: Row): string[] {
  return tableGridCells(c, "–");
}

/** The heads of {@linkcode gridCells}. */
export const GRID_HEADS = [
  "Test",
  "pp tok/s",
  "tg tok/s",
  "Prompt tokens",
  "Output tokens",
  "Runs",
];

/** The grid of an entry as one CSV text: `pp128 tg32: pp 1234.5 ± 12.3, tg 98.70 ± 1.20; …`. */
export function gridText(e: ReportEntry): string | null {
  if (e.grid.length === 0) return null;
  return e.grid.map((c) => {
    const [test, pp, tg, prompt, output] = gridCells(c);
    return `${test}: pp ${pp}, tg ${tg} (prompt ${prompt}, output ${output})`;
  }).join("; ");
}

/**
 * One load level as report cells (see {@linkcode loadHeads}): the percentiles of request
 * latency, TTFT and TPOT are the report's, from the level's stored columns or its requests.
 */
export function loadCells(l: Row, runs: readonly Row[], percentiles: readonly number[]): string[] {
  const n = (v: unknown, digits: number) => (typeof v === "number" ? fixed(v, digits) : "–");
  const ps = (metric: (typeof LEVEL_PERCENTILE_METRICS)[number][0], digits: number) =>
    percentiles.map((p) => n(levelPercentile(l, runs, metric, p), digits)).join(" / ");
  return [
    l.mode === "concurrency" ? `concurrency ${l.level}` : `${l.level} req/s`,
    `${l.ok}/${l.requests}`,
    n(l.output_tokens_per_sec, 1),
    n(l.requests_per_sec, 2),
    n(l.goodput_rps, 2),
    ps("latency_ms", 0),
    ps("ttft_ms", 1),
    ps("tpot_ms", 2),
    l.knee === 1 ? "knee" : "",
  ];
}

/** The heads of {@linkcode loadCells}: `Latency p50 / p90 / p99 ms` with the report's percentiles. */
export function loadHeads(percentiles: readonly number[]): string[] {
  const labels = percentiles.map(percentileLabel).join(" / ");
  return [
    "Level",
    "OK",
    "Output tok/s",
    "Req/s",
    "Goodput req/s",
    `Latency ${labels} ms`,
    `TTFT ${labels} ms`,
    `TPOT ${labels} ms`,
    "Knee",
  ];
}

/**
 * The load curve of an entry as one CSV text, with the report's percentiles of request latency:
 * `concurrency 1: 123.4 tok/s, 3.21 req/s, goodput –, latency p50/p99 300 / 456 ms; …`.
 */
export function loadText(e: ReportEntry, percentiles: readonly number[]): string | null {
  if (e.load_curve.length === 0) return null;
  const labels = percentiles.map(percentileLabel).join("/");
  return e.load_curve.map((l) => {
    const c = loadCells(l, e.runs, percentiles);
    return `${c[0]}: ${c[2]} tok/s, ${c[3]} req/s, goodput ${c[4]}, latency ${labels} ${c[5]} ms${
      l.knee === 1 ? " (knee)" : ""
    }`;
  }).join("; ");
}
