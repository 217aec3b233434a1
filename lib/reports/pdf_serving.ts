/**
 * The serving sections of the PDF report: latency distributions per model.
 *
 * @module
 */
import { displayName, num, type ReportData, type ReportEntry } from "./model.ts";
import type { PdfColumn, PdfWriter } from "./pdf_layout.ts";
import {
  GRID_HEADS,
  gridCells,
  hasLatency,
  LATENCY_ROWS,
  LATENCY_STATS,
  msText,
} from "./serving.ts";

/** TTFT, TPOT, ITL and request latency as mean, p50, p90 and p99 per model. */
export function latencySection(w: PdfWriter, data: ReportData, ranked: ReportEntry[]): void {
  if (!hasLatency(data.entries)) return;
  w.heading("Latency distributions (ms): TTFT, time per output token, inter-token, request");
  for (const [label, metric] of LATENCY_ROWS) {
    const cols: PdfColumn<ReportEntry>[] = [
      { head: `${label}`, width: 230, value: displayName },
      ...LATENCY_STATS.map(([stat, suffix]): PdfColumn<ReportEntry> => ({
        head: stat,
        width: 70,
        align: "right",
        value: (e) => msText(num(e, `${metric}_${suffix}`)),
      })),
    ];
    w.table(cols, ranked);
  }
  w.paragraph(
    "TTFT: request sent → first token event. TPOT: 1000 ÷ decode tokens/s. ITL: the gaps " +
      "between token events of every run, pooled. Latency: request sent → stream end. " +
      "Percentiles over the measured runs (ITL: over the gaps).",
    true,
  );
}

/** The controlled workload's grid: pp and tg tokens/s ± std per model and cell. */
export function gridSection(w: PdfWriter, data: ReportData): void {
  const rows = data.entries.flatMap((e) => e.grid.map((c) => ({ e, c })));
  if (rows.length === 0) return;
  w.heading("Controlled workload: prefill (pp) and decode (tg) tokens/s ± std");
  const widths = [90, 110, 110, 90, 90, 40];
  type R = (typeof rows)[number];
  w.table([
    { head: "Model", width: 230, value: (r: R) => displayName(r.e) },
    ...GRID_HEADS.map((head, i): PdfColumn<R> => ({
      head,
      width: widths[i]!,
      align: i === 0 ? "left" : "right",
      value: (r) => gridCells(r.c)[i]!,
    })),
  ], rows);
  w.paragraph(
    "Prompt tokens: the target when the server's tokenizer confirmed it, ≈ the mean reached when " +
      "calibrated. Output tokens: the target when the server forced it (llama.cpp ignore_eos), " +
      "else ≤ target (mean reached).",
    true,
  );
}
