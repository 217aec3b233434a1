/**
 * The PDF report (pdfkit, A4 landscape, DejaVu fonts embedded). It opens with what a reader came
 * for: the results sorted by `--rank-by`, the parallel rounds, the recommendations and the
 * summary; then the charts, statistics, latency, workload and load curves, the comparison, best
 * per quantization and profiling; the parameters and the system close it. Sections follow each
 * other on the page: a new page only where the next block does not fit.
 *
 * @module
 */
import { machineName, machinePairs, reportMachines } from "./machines.ts";
import { chartSpecs } from "./chart_specs.ts";
import { drawChart } from "./pdf_charts.ts";
import {
  CI_CLAMPED_NOTE,
  ciClamped,
  ciText,
  deltaCell,
  deltaText,
  runsText,
  yesNo,
} from "./format.ts";
import { dateTime, fixed } from "../shared/format.ts";
import { acrossModels, bestPerQuantization, recommendations, reportSummary } from "./insights.ts";
import {
  displayName,
  modelCellText,
  num,
  type ReportData,
  type ReportEntry,
  sizeGb,
} from "./model.ts";
import { flattenParams, parameterSets } from "./parameters.ts";
import { appliedRows, appliedText } from "./applied.ts";
import { gridSection, latencySection, loadSection, parallelSection } from "./pdf_serving.ts";
import { type PdfColumn, PdfWriter } from "./pdf_layout.ts";
import { loadPdfkit, type PdfDocumentClass } from "./pdfkit.ts";
import {
  HARDWARE_LABELS,
  hasProfiling,
  noProfilingText,
  profiled,
  resultNotes,
} from "./profiling.ts";
import { rankEntries, RANKINGS } from "./rank.ts";

type E = ReportEntry;

const n = (head: string, width: number, column: string, digits = 1): PdfColumn<E> => ({
  head,
  width,
  align: "right",
  value: (e) => fixed(num(e, column), digits),
});

const ci = (column: string, digits = 1) => (e: E) =>
  ciText(num(e, `${column}_ci_low`), num(e, `${column}_ci_high`), digits);

/** The note under a table whose intervals include one with its lower end put at 0. */
function clampedNote(w: PdfWriter, entries: readonly E[], columns: string[]): void {
  const any = entries.some((e) =>
    columns.some((c) => ciClamped(num(e, `${c}_ci_low`), num(e, `${c}_ci_high`)))
  );
  if (any) w.paragraph(CI_CLAMPED_NOTE, true);
}

function detailedColumns(data: ReportData, width: number): PdfColumn<E>[] {
  const cols: PdfColumn<E>[] = [
    { head: "#", width: 18, align: "right", value: () => "" },
    {
      head: "Model",
      width: 0,
      // Several machines: each row names its own (one machine is named above the table).
      value: reportMachines(data.entries).length > 1
        ? (e) => `${modelCellText(e)} · on ${machineName(e)}`
        : modelCellText,
    },
    { head: "Quant", width: 50, value: (e) => e.row.quantization ?? "–" },
    { head: "Arch", width: 50, value: (e) => String(e.row.architecture ?? "–") },
    { head: "Params", width: 42, value: (e) => String(e.row.params_size ?? "–") },
    { head: "Size GiB", width: 40, align: "right", value: (e) => fixed(sizeGb(e), 2) },
    {
      head: "Vision / tools",
      width: 48,
      value: (e) => `${yesNo(e.row.has_vision)} / ${yesNo(e.row.has_tools)}`,
    },
    n("Tokens /s", 44, "tokens_per_sec_mean"),
    { head: "95% CI", width: 60, align: "right", value: ci("tokens_per_sec") },
    n("TTFT ms", 40, "ttft_ms_mean", 0),
    n("E2E tok/s", 42, "e2e_tokens_per_sec_mean"),
    n("Tok/s per GiB", 48, "tokens_per_sec_per_gb"),
    n("VRAM MB", 42, "vram_mb", 0),
    { head: "Runs", width: 40, align: "right", value: (e) => runsText(e.row) },
  ];
  if (data.compare) {
    cols.push(
      { head: "Δ speed", width: 50, align: "right", value: (e) => deltaCell(e.comparison?.speed) },
      { head: "Δ TTFT", width: 50, align: "right", value: (e) => deltaCell(e.comparison?.ttft) },
    );
  }
  cols[1]!.width = Math.max(110, width - cols.reduce((s, c) => s + c.width, 0));
  return cols;
}

function numbered(cols: PdfColumn<E>[], rows: E[]): PdfColumn<E>[] {
  const [first, ...rest] = cols;
  return [{ ...first!, value: (e) => String(rows.indexOf(e) + 1) }, ...rest];
}

function summarySection(w: PdfWriter, data: ReportData): void {
  const s = reportSummary(data.entries);
  w.heading("Summary");
  w.keyValues([
    ["Results (model variants)", `${s.models} (${s.variants})`],
    ["Measured runs", `${s.runs} (${s.failed_runs} failed)`],
    [
      "Fastest",
      s.fastest ? `${s.fastest.name}: ${fixed(s.fastest.tokens_per_sec)} tokens/s` : "–",
    ],
    [
      "Slowest",
      s.slowest ? `${s.slowest.name}: ${fixed(s.slowest.tokens_per_sec)} tokens/s` : "–",
    ],
    ["Average speed", `${fixed(s.average_tokens_per_sec)} tokens/s`],
    ["Average time to first token", `${fixed(s.average_ttft_ms, 0)} ms`],
    ["Vision / tool models", `${s.vision_models} / ${s.tool_models}`],
    ["Average size", `${fixed(s.average_size_gb, 2)} GiB`],
  ]);
}

function parametersSection(w: PdfWriter, data: ReportData): void {
  w.heading("Parameters (the values used, command-line overrides included)");
  const applied = appliedRows(data.entries);
  if (applied.length) {
    w.paragraph("Requested → applied (read back where the server reports it):", true);
    w.keyValues(applied.map((r) => [r.name, appliedText(r)]));
  }
  for (const set of parameterSets(data.entries)) {
    w.paragraph(
      `Parameter set ${set.params_hash} · backend ${set.backend} · ${
        set.num_runs.join("/")
      } measured run(s) per model · ${set.models.length} model variant(s)`,
      true,
    );
    w.keyValues([...flattenParams(set.values), ["models", set.models.join(", ")]]);
  }
  w.paragraph("Run options", true);
  w.keyValues(flattenParams(data.options));
}

function chartsSection(w: PdfWriter, data: ReportData): void {
  const specs = chartSpecs(data);
  if (specs.length === 0) return;
  const gap = 14;
  const cw = (w.width - gap) / 2;
  const ch = cw * 0.56;
  // Two charts a row; a row that does not fit starts a page (the heading stays with the first).
  w.heading("Charts", ch + gap + 40);
  for (let i = 0; i < specs.length; i += 2) {
    w.ensure(ch + gap);
    const top = w.doc.y;
    specs.slice(i, i + 2).forEach((spec, j) => {
      const x = w.doc.page.margins.left + j * (cw + gap);
      drawChart(w.doc, spec, { x, y: top, width: cw, height: ch });
    });
    w.doc.x = w.doc.page.margins.left;
    w.doc.y = top + ch + gap;
  }
}

function statisticsSection(w: PdfWriter, data: ReportData, ranked: E[]): void {
  w.heading("Statistics per model (over the measured runs)");
  w.table([
    { head: "Model", width: 190, value: displayName },
    n("Tok/s mean", 54, "tokens_per_sec_mean"),
    n("median", 46, "tokens_per_sec_median"),
    n("p95", 46, "tokens_per_sec_p95"),
    { head: "95% CI", width: 70, align: "right", value: ci("tokens_per_sec") },
    {
      head: "CV",
      width: 40,
      align: "right",
      value: (e) => fixed((num(e, "tokens_per_sec_cv") ?? NaN) * 100, 1) + "%",
    },
    n("TTFT mean", 54, "ttft_ms_mean", 0),
    n("median", 46, "ttft_ms_median", 0),
    n("p95", 46, "ttft_ms_p95", 0),
    { head: "95% CI", width: 70, align: "right", value: ci("ttft_ms", 0) },
    n("Runs", 34, "runs_ok", 0),
    n("Failed", 38, "runs_failed", 0),
  ], ranked);
  clampedNote(w, ranked, ["tokens_per_sec", "ttft_ms"]);
  w.heading("Statistics across models (of the per-model means)");
  const rows = Object.entries(acrossModels(data.entries));
  type R = (typeof rows)[number];
  const s = (head: string, k: "mean" | "median" | "p95" | "min" | "max"): PdfColumn<R> => ({
    head,
    width: 70,
    align: "right",
    value: (r) => fixed(r[1][k]),
  });
  w.table([
    { head: "Metric", width: 190, value: (r) => r[0] },
    s("Mean", "mean"),
    s("Median", "median"),
    s("p95", "p95"),
    s("Min", "min"),
    s("Max", "max"),
    { head: "Models", width: 50, align: "right", value: (r) => String(r[1].n) },
  ], rows);
}

function comparisonSection(w: PdfWriter, data: ReportData, ranked: E[]): void {
  if (!data.compare) return;
  w.heading(`Comparison with report ${data.compare.report_id}`);
  w.paragraph(
    `Earlier report ${data.compare.file} (${dateTime(data.compare.generated_at)} UTC). ` +
      "Significance: Welch's t-test on the per-run samples, p < 0.05 (* in the tables).",
    true,
  );
  w.table([
    { head: "Model", width: 220, value: displayName },
    {
      head: "Speed (tokens/s)",
      width: 270,
      value: (e) =>
        e.comparison
          ? deltaText(e.comparison.speed)
          : e.comparison_note ?? "not in the earlier report",
    },
    {
      head: "Time to first token",
      width: 270,
      value: (e) => e.comparison ? deltaText(e.comparison.ttft) : "–",
    },
  ], ranked);
}

function bestSection(w: PdfWriter, data: ReportData): void {
  w.heading("Best per quantization");
  const name = (e: E | null) => (e ? displayName(e) : "–");
  w.table([
    { head: "Quantization", width: 100, value: (q) => `${q.quantization} (${q.count})` },
    { head: "Fastest", width: 220, value: (q) => name(q.fastest) },
    { head: "Most efficient (tok/s per GiB)", width: 220, value: (q) => name(q.most_efficient) },
    { head: "Lowest time to first token", width: 220, value: (q) => name(q.lowest_ttft) },
  ], bestPerQuantization(data.entries));
}

/** The results sorted by `--rank-by`, what Δ and † mean, then the parallel rounds. */
/** Which machine the results ran on (one), or that each row names its own. */
function machinesSentence(data: ReportData): string {
  const machines = reportMachines(data.entries);
  return machines.length === 1
    ? `Every result ran on ${machines[0]!.name}.`
    : `They ran on ${machines.length} machines: each row names its own.`;
}

function resultsSection(w: PdfWriter, data: ReportData, ranked: E[]): void {
  w.heading("Results");
  w.paragraph(
    `${ranked.length} result(s), one per model variant and workload, sorted by ${
      RANKINGS[data.rank_by].label
    } ` +
      `(--rank-by ${data.rank_by}); tokens/s is the decode speed over the measured runs. ` +
      machinesSentence(data),
    true,
  );
  w.table(numbered(detailedColumns(data, w.width), ranked), ranked);
  if (data.compare) {
    w.paragraph(
      `Δ: change against report ${data.compare.report_id}; * marks a significant change (Welch's t-test, p < 0.05).`,
      true,
    );
  }
  clampedNote(w, ranked, ["tokens_per_sec"]);
  parallelSection(w, ranked);
}

function profilingSection(w: PdfWriter, data: ReportData): void {
  w.heading("Hardware profiling");
  if (!hasProfiling(data.entries)) {
    w.paragraph(noProfilingText(data.entries), true);
    return;
  }
  const cols: PdfColumn<E>[] = [{ head: "Model", width: 160, value: displayName }];
  for (const [series, label] of HARDWARE_LABELS) {
    cols.push({
      head: `${label} min / mean / max`,
      width: 120,
      align: "right",
      value: (e) => ["min", "mean", "max"].map((s) => fixed(num(e, `${series}_${s}`))).join(" / "),
    });
  }
  w.table(cols, data.entries.filter(profiled));
}

function notesSection(w: PdfWriter, data: ReportData): void {
  const notes = resultNotes(data.entries);
  if (notes.length === 0) return;
  w.heading("Notes of the results");
  w.keyValues(notes);
}

/** Renders the PDF report (with pdfkit's `PDFDocument` from `pdfkit`: pdfkit.ts by default). */
export async function renderPdf(
  data: ReportData,
  pdfkit: Promise<{ PDFDocument: PdfDocumentClass }> = loadPdfkit(),
): Promise<Uint8Array> {
  const { PDFDocument } = await pdfkit;
  const w = new PdfWriter(PDFDocument, { title: `localbench report ${data.id}` });
  const ranked = rankEntries(data.entries, data.rank_by);
  w.title(
    "localbench benchmark report",
    `Report ${data.id} · generated ${dateTime(data.generated_at)} UTC · ${
      data.source === "export-only"
        ? "exported from the results store"
        : "measured in this benchmark"
    } · ${data.tool.name} ${data.tool.version}`,
  );
  resultsSection(w, data, ranked);
  w.heading("Recommendations");
  w.bullets(recommendations(data.entries));
  summarySection(w, data);
  chartsSection(w, data);
  statisticsSection(w, data, ranked);
  latencySection(w, data, ranked);
  gridSection(w, data);
  loadSection(w, data);
  comparisonSection(w, data, ranked);
  bestSection(w, data);
  profilingSection(w, data);
  notesSection(w, data);
  parametersSection(w, data);
  w.heading("Machines (as each result recorded them)");
  w.keyValues(machinePairs(data.entries));
  w.heading("System");
  w.keyValues(flattenParams(data.system));
  return await w.finish(`localbench report ${data.id}`);
}
