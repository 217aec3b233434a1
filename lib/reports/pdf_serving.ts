/**
 * The serving sections of the PDF report: latency distributions per model.
 *
 * @module
 */
import { displayName, num, type ReportData, type ReportEntry } from "./model.ts";
import type { PdfColumn, PdfWriter } from "./pdf_layout.ts";
import { hasLatency, LATENCY_ROWS, LATENCY_STATS, msText } from "./serving.ts";

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
