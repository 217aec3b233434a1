/**
 * Reports: JSON, CSV, a self-contained HTML file and a PDF with charts, written after a benchmark
 * or by `--export-only`; `--compare-with` and `--rank-by`.
 *
 * @module
 */
export { loadComparison, prepareReports, runExportOnly } from "./cli_steps.ts";
export type { ReportCommandOptions } from "./cli_steps.ts";
export { benchmarkEntries, buildReport, exportEntries, reportId, targetOfRow } from "./build.ts";
export type { BuildOptions } from "./build.ts";
export {
  applyComparison,
  listReports,
  loadPreviousReport,
  metricDelta,
  REPORT_JSON,
  resolveCompareFile,
  speedTrend,
} from "./compare.ts";
export type { PreviousReport, PreviousResult } from "./compare.ts";
export { entryOf } from "./model.ts";
export type {
  ComparisonSource,
  EntryComparison,
  MetricDelta,
  RankBy,
  ReportData,
  ReportEntry,
  TrendPoint,
} from "./model.ts";
export { CSV_COLUMNS, csvField, renderCsv } from "./csv.ts";
export { entryJson, renderJson, REPORT_SCHEMA, reportJson } from "./json.ts";
export { renderHtml, renderPdf } from "./exporters.ts";
export { chartSpecs } from "./chart_specs.ts";
export type { ChartSpec } from "./chart_specs.ts";
export { rankEntries, RANKINGS } from "./rank.ts";
export { welchTest } from "./welch.ts";
export type { WelchResult } from "./welch.ts";
export { EXPORTERS, outcomeLines, reportFileName, writeReports } from "./write.ts";
export type { Exporter, ReportFormat, WriteOptions, WriteOutcome } from "./write.ts";
