/**
 * The serving sections of the PDF report: the parallel rounds, load and warmup times, latency
 * distributions per model, the controlled workload's grid and the load curves.
 *
 * @module
 */
import { displayName, num, type ReportData, type ReportEntry } from "./model.ts";
import type { PdfColumn, PdfWriter } from "./pdf_layout.ts";
import {
  GRID_HEADS,
  gridCells,
  hasLatency,
  isParallel,
  LATENCY_ROWS,
  latencyStats,
  loadCells,
  loadHeads,
  msText,
  PARALLEL_HEADS,
  PARALLEL_NOTE,
  parallelCells,
} from "./serving.ts";

const seconds = (e: ReportEntry, column: string) => {
  const ms = num(e, column);
  return ms === null ? "–" : (ms / 1000).toFixed(2);
};

/** The parallel rounds of the entries that have them (nothing when none has). */
export function parallelSection(w: PdfWriter, ranked: ReportEntry[]): void {
  const rows = ranked.filter(isParallel);
  if (rows.length === 0) return;
  w.heading("Parallel rounds: N requests at once");
  const widths = [60, 80, 80, 100, 100, 90];
  w.table([
    { head: "Model", width: 250, value: displayName },
    ...PARALLEL_HEADS.map((head, i): PdfColumn<ReportEntry> => ({
      head,
      width: widths[i]!,
      align: "right",
      value: (e) => parallelCells(e)[i]!,
    })),
  ], rows);
  w.paragraph(PARALLEL_NOTE, true);
}

/** Load and warmup times per model, and the runs left out because of a reload. */
export function loadTimesSection(w: PdfWriter, ranked: ReportEntry[]): void {
  w.heading("Load and warmup");
  w.table([
    { head: "Model", width: 300, value: displayName },
    { head: "Load (s)", width: 80, align: "right", value: (e) => seconds(e, "load_time_ms") },
    { head: "Warmup (s)", width: 80, align: "right", value: (e) => seconds(e, "warmup_ms") },
    {
      head: "Runs excluded (reload)",
      width: 120,
      align: "right",
      value: (e) => String(num(e, "runs_excluded") ?? 0),
    },
  ], ranked);
}

/** TTFT, TPOT, ITL and request latency as mean and the report's percentiles per model. */
export function latencySection(w: PdfWriter, data: ReportData, ranked: ReportEntry[]): void {
  loadTimesSection(w, ranked);
  if (!hasLatency(data.entries)) return;
  w.heading("Latency distributions (ms): TTFT, time per output token, inter-token, request");
  // The mean and each percentile share what the name leaves of the page, 70 points at most.
  const statWidth = Math.min(70, Math.floor((w.width - 230) / (1 + data.percentiles.length)));
  for (const [label, metric] of LATENCY_ROWS) {
    const cols: PdfColumn<ReportEntry>[] = [
      { head: `${label}`, width: 230, value: displayName },
      ...latencyStats(metric, data.percentiles).map((stat): PdfColumn<ReportEntry> => ({
        head: stat.label,
        width: statWidth,
        align: "right",
        value: (e) => msText(stat.value(e)),
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

/** The load curves: per model and level, throughput, goodput, latency percentiles, the knee. */
export function loadSection(w: PdfWriter, data: ReportData): void {
  const rows = data.entries.flatMap((e) => e.load_curve.map((l) => ({ e, l })));
  if (rows.length === 0) return;
  w.heading("Load curves: throughput and latency by concurrency and request rate");
  // More than three percentiles: the three percentile columns share the rest of the page.
  const few = data.percentiles.length <= 3;
  const widths = [82, 40, 62, 46, 62, few ? 102 : 98, few ? 80 : 97, few ? 80 : 97, 36];
  type R = (typeof rows)[number];
  w.table([
    { head: "Model", width: 150, value: (r: R) => displayName(r.e) },
    ...loadHeads(data.percentiles).map((head, i): PdfColumn<R> => ({
      head,
      width: widths[i]!,
      align: i === 0 ? "left" : "right",
      value: (r) => loadCells(r.l, r.e.runs, data.percentiles)[i]!,
    })),
  ], rows);
  w.paragraph(
    "Output tok/s: all output tokens of the level ÷ its duration (first request sent → last " +
      "stream ended). Goodput: requests meeting every latency target given (--slo-ttft, " +
      "--slo-tpot) ÷ duration. Knee: the first level whose next level adds less than 10 % " +
      "throughput. Rates are Poisson arrivals (seeded).",
    true,
  );
}
