/**
 * The results table printed after a benchmark.
 *
 * @module
 */
import type { ResultRow } from "../store/mod.ts";
import { shortModelName } from "../shared/model_name.ts";

const num = (v: unknown, digits: number) => (typeof v === "number" ? v.toFixed(digits) : "-");

/** An aligned table: the first `left` columns padded right, the others left. */
function aligned(head: string[], body: string[][], left: number): string {
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
    "tok/s/GB",
    "Runs",
  ];
  const body = rows.map((r) => {
    const mean = r.tokens_per_sec_mean as number | null;
    const hi = r.tokens_per_sec_ci_high as number | null;
    return [
      shortModelName(r.model_name),
      r.quantization ?? "-",
      num(mean, 2),
      mean !== null && hi !== null ? num(hi - mean, 2) : "-",
      num(r.ttft_ms_mean, 1),
      num(r.prefill_tokens_per_sec_mean, 1),
      num(r.e2e_tokens_per_sec_mean, 2),
      num(r.tokens_per_sec_per_gb, 2),
      `${r.runs_ok ?? 0}${r.runs_failed ? `+${r.runs_failed} failed` : ""}`,
    ];
  });
  return aligned(head, body, 2);
}
