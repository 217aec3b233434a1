/**
 * The results table printed after a benchmark.
 *
 * @module
 */
import { cellLabel, type ResultRow, type Row, workloadText } from "../store/mod.ts";
import { fixed } from "../shared/format.ts";
import { shortModelName } from "../shared/model_name.ts";

const num = (v: unknown, digits: number) => fixed(v, digits, "-");

/** A variant in one cell (`qwen/qwen3-4b@q4_k_m`), for tables without a quantization column. */
const variant = (r: ResultRow) => shortModelName(String(r.model_key ?? r.model_name));

/** An aligned table: the first `left` columns padded right, the others left. */
export function aligned(head: string[], body: string[][], left: number): string {
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const fmtRow = (row: string[]) =>
    row.map((c, i) => (i < left ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [fmtRow(head), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(fmtRow)].join(
    "\n",
  );
}

/**
 * The latency distributions of result rows: time to first token, time per output token and
 * inter-token latency, each as mean, p50, p90 and p99 (ms).
 */
export function latencyTable(rows: ResultRow[]): string {
  const head = ["Latency (ms)", "Quant"];
  const metrics = [["TTFT", "ttft_ms"], ["TPOT", "tpot_ms"], ["ITL", "itl_ms"]] as const;
  for (const [label] of metrics) {
    head.push(`${label} mean`, `${label} p50`, `${label} p90`, `${label} p99`);
  }
  const body = rows.map((r) => [
    shortModelName(r.model_name),
    r.quantization ?? "-",
    ...metrics.flatMap(([, m]) => [
      num(r[`${m}_mean`], 2),
      num(r[`${m}_median`], 2),
      num(r[`${m}_p90`], 2),
      num(r[`${m}_p99`], 2),
    ]),
  ]);
  return aligned(head, body, 2);
}

/** Formats result rows as an aligned text table (decode speed with its 95% interval). */
export function resultsTable(rows: ResultRow[]): string {
  if (rows.length === 0) return "No results.";
  const head = [
    "Model",
    "Quant",
    "tok/s",
    "±95%",
    "TTFT ms",
    "prefill tok/s",
    "e2e tok/s",
    "tok/s/GiB",
    "load s",
    "warmup s",
    "Runs",
  ];
  // One row per identity: a grid's cells are rows of their own, told apart by the workload.
  const workloads = rows.map((r) => workloadText(r.params_json));
  const withWorkload = workloads.some((w) => w !== null);
  if (withWorkload) head.splice(2, 0, "Workload");
  const body = rows.map((r, i) => {
    const mean = r.tokens_per_sec_mean as number | null;
    const hi = r.tokens_per_sec_ci_high as number | null;
    return [
      shortModelName(r.model_name),
      r.quantization ?? "-",
      ...(withWorkload ? [workloads[i] ?? "configured prompt"] : []),
      num(mean, 2),
      mean !== null && hi !== null ? num(hi - mean, 2) : "-",
      num(r.ttft_ms_mean, 1),
      num(r.prefill_tokens_per_sec_mean, 1),
      num(r.e2e_tokens_per_sec_mean, 2),
      num(r.tokens_per_sec_per_gb, 2),
      typeof r.load_time_ms === "number" ? num(r.load_time_ms / 1000, 2) : "-",
      typeof r.warmup_ms === "number" ? num(r.warmup_ms / 1000, 2) : "-",
      `${r.runs_ok ?? 0}${r.runs_failed ? `+${r.runs_failed} failed` : ""}`,
    ];
  });
  return aligned(head, body, withWorkload ? 3 : 2);
}

/**
 * The parallel rounds (`--n-parallel N`) of the rows that have them: N streams at once, their
 * aggregate output tokens/s, how many times one stream's end-to-end speed that is, and the
 * request latency; null when no row has parallel rounds.
 */
export function parallelTable(rows: ResultRow[]): string | null {
  const parallel = rows.filter((r) =>
    typeof r.n_parallel === "number" && r.n_parallel > 1 &&
    typeof r.parallel_tokens_per_sec === "number"
  );
  if (parallel.length === 0) return null;
  const head = ["Parallel", "Quant", "streams", "total tok/s", "× 1 stream", "latency ms", "p95"];
  const body = parallel.map((r) => {
    const one = r.e2e_tokens_per_sec_mean;
    const total = r.parallel_tokens_per_sec as number;
    return [
      shortModelName(r.model_name),
      r.quantization ?? "-",
      String(r.n_parallel),
      num(total, 1),
      typeof one === "number" && one > 0 ? `${(total / one).toFixed(2)}×` : "-",
      num(r.parallel_latency_ms_mean, 0),
      num(r.parallel_latency_ms_p95, 0),
    ];
  });
  return aligned(head, body, 2);
}

/** A cell's measured length: the target when exact, else `≈mean` (prompt) or `≤target` (output). */
export function lengthText(
  target: unknown,
  mean: unknown,
  exact: unknown,
  bound: "≈" | "≤",
): string {
  if (typeof target !== "number") return typeof mean === "number" ? mean.toFixed(0) : "-";
  if (exact === 1) return String(target);
  const m = typeof mean === "number" ? mean.toFixed(1) : "?";
  return bound === "≈" ? `≈${m}` : `≤${target} (${m})`;
}

/**
 * One cell of a controlled workload's grid as table cells: test (`pp128 tg32`), prefill and
 * decode tokens/s ± standard deviation, the prompt and output lengths reached, the runs;
 * `missing` stands for an absent value (the reports use "–").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gridCells } from "./table.ts";
 * const cell = { prompt_tokens: 128, gen_tokens: null, pp_tps_mean: 812.25, pp_tps_std: 3,
 *   tg_tps_mean: null, prompt_exact: 1, gen_tokens_mean: 40, runs: 3 };
 * assert.deepEqual(gridCells(cell), ["pp128", "812.3 ± 3.0", "-", "128", "40", "3"]);
 * ```
 */
export function gridCells(c: Row, missing = "-"): string[] {
  const pm = (mean: unknown, std: unknown, digits: number) =>
    typeof mean !== "number"
      ? missing
      : `${fixed(mean, digits, missing)} ± ${fixed(std, digits, missing)}`;
  return [
    cellLabel({
      prompt_tokens: typeof c.prompt_tokens === "number" ? c.prompt_tokens : null,
      gen_tokens: typeof c.gen_tokens === "number" ? c.gen_tokens : null,
      kv_depth: typeof c.kv_depth === "number" ? c.kv_depth : null,
    }).replace(/^default$/, ""),
    pm(c.pp_tps_mean, c.pp_tps_std, 1),
    pm(c.tg_tps_mean, c.tg_tps_std, 2),
    lengthText(c.prompt_tokens, c.prompt_tokens_mean, c.prompt_exact, "≈"),
    lengthText(c.gen_tokens, c.gen_tokens_mean, c.gen_exact, "≤"),
    String(c.runs ?? missing),
  ];
}

/**
 * The llama-bench-style grid of a controlled workload: per model and cell, prefill (pp) and
 * decode (tg) tokens/s ± standard deviation, the lengths reached and the runs.
 */
export function gridTable(models: { row: ResultRow; grid: Row[] }[]): string {
  const head = ["Grid", "test", "pp tok/s", "tg tok/s", "prompt", "output", "runs"];
  const body = models.flatMap(({ row, grid }) => grid.map((c) => [variant(row), ...gridCells(c)]));
  return aligned(head, body, 2);
}

/** The first columns of a load-curve table: the model, the level and what it achieved. */
export const LOAD_LEAD_HEAD = ["Load curve", "level", "ok", "out tok/s", "req/s", "goodput/s"];

/** The cells of {@linkcode LOAD_LEAD_HEAD} for one level of a model. */
export function loadLeadCells(row: ResultRow, l: Row): string[] {
  return [
    variant(row),
    l.mode === "concurrency" ? `c=${l.level}` : `${l.level}/s`,
    `${l.ok}/${l.requests}`,
    num(l.output_tokens_per_sec, 1),
    num(l.requests_per_sec, 2),
    num(l.goodput_rps, 2),
  ];
}

/** The knee mark of a level's row. */
export const kneeCell = (l: Row): string => l.knee === 1 ? "◀ knee" : "";

/** A load-curve table, its trailing blanks trimmed (the knee column is mostly empty). */
export function loadTableText(head: string[], body: string[][]): string {
  return aligned(head, body, 2).split("\n").map((l) => l.trimEnd()).join("\n");
}

/** The load curves: per model and level, throughput, goodput, latency percentiles and the knee. */
export function loadTable(models: { row: ResultRow; levels: Row[] }[]): string {
  const head = [
    ...LOAD_LEAD_HEAD,
    "latency p50",
    "p90",
    "p99",
    "TTFT p50",
    "p99",
    "TPOT p50",
    "p99",
    "knee",
  ];
  const body = models.flatMap(({ row, levels }) =>
    levels.map((l) => [
      ...loadLeadCells(row, l),
      num(l.latency_ms_p50, 0),
      num(l.latency_ms_p90, 0),
      num(l.latency_ms_p99, 0),
      num(l.ttft_ms_p50, 1),
      num(l.ttft_ms_p99, 1),
      num(l.tpot_ms_p50, 2),
      num(l.tpot_ms_p99, 2),
      kneeCell(l),
    ])
  );
  return loadTableText(head, body);
}
