/**
 * What the serving sections of the reports show, shared by the HTML and PDF reports: the latency
 * distributions (TTFT, TPOT, ITL and request latency as mean, p50, p90, p99), the parallel
 * rounds, the controlled workload's grid and the load curves.
 *
 * @module
 */
import { gridCells as tableGridCells } from "../bench/mod.ts";
import type { Row } from "../store/mod.ts";
import { fixed } from "../shared/format.ts";
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

/** One load level as report cells (see {@linkcode LOAD_HEADS}). */
export function loadCells(l: Row): string[] {
  const n = (v: unknown, digits: number) => (typeof v === "number" ? fixed(v, digits) : "–");
  return [
    l.mode === "concurrency" ? `concurrency ${l.level}` : `${l.level} req/s`,
    `${l.ok}/${l.requests}`,
    n(l.output_tokens_per_sec, 1),
    n(l.requests_per_sec, 2),
    n(l.goodput_rps, 2),
    `${n(l.latency_ms_p50, 0)} / ${n(l.latency_ms_p90, 0)} / ${n(l.latency_ms_p99, 0)}`,
    `${n(l.ttft_ms_p50, 1)} / ${n(l.ttft_ms_p99, 1)}`,
    `${n(l.tpot_ms_p50, 2)} / ${n(l.tpot_ms_p99, 2)}`,
    l.knee === 1 ? "knee" : "",
  ];
}

/** The heads of {@linkcode loadCells}. */
export const LOAD_HEADS = [
  "Level",
  "OK",
  "Output tok/s",
  "Req/s",
  "Goodput req/s",
  "Latency p50/p90/p99 ms",
  "TTFT p50/p99 ms",
  "TPOT p50/p99 ms",
  "Knee",
];

/** The load curve of an entry as one CSV text: `c=1: 123.4 tok/s, 3.21 req/s, p99 456 ms; …`. */
export function loadText(e: ReportEntry): string | null {
  if (e.load_curve.length === 0) return null;
  return e.load_curve.map((l) => {
    const c = loadCells(l);
    return `${c[0]}: ${c[2]} tok/s, ${c[3]} req/s, goodput ${c[4]}, latency p99 ${
      typeof l.latency_ms_p99 === "number" ? fixed(l.latency_ms_p99, 0) : "–"
    } ms${l.knee === 1 ? " (knee)" : ""}`;
  }).join("; ");
}
