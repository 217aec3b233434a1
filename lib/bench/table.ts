/**
 * The results table printed after a benchmark.
 *
 * @module
 */
import type { ResultRow } from "../store/mod.ts";
import { shortModelName } from "../shared/model_name.ts";

const num = (v: unknown, digits: number) => (typeof v === "number" ? v.toFixed(digits) : "-");

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
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const fmtRow = (row: string[]) =>
    row.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [fmtRow(head), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(fmtRow)].join(
    "\n",
  );
}
