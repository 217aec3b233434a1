/**
 * The JSON report: one object per model variant with every stored column, the derived values,
 * the per-run samples, the parameters and the comparison; plus system information and the tool
 * version.
 *
 * @module
 */
import { reportSummary } from "./insights.ts";
import { type ReportData, type ReportEntry, sizeGb } from "./model.ts";
import { parameterSets } from "./parameters.ts";
import { machineName, reportMachines } from "./machines.ts";
import { notAppliedNames } from "../bench/mod.ts";
import { latencyPercentilesJson, levelPercentilesJson } from "./percentiles.ts";

/** Schema name of the JSON report. */
export const REPORT_SCHEMA = "localbench.report/1";

const PARSED = new Set([
  "params_json",
  "system_json",
  "warnings_json",
  "applied_json",
  "workload_json",
]);

/**
 * The JSON object of one model variant; `latency_percentiles` and each load level's
 * `latency_percentiles` hold the report's percentiles (keys `p50`, `p99.9`, …).
 */
export function entryJson(
  e: ReportEntry,
  percentiles: readonly number[] = [],
): Record<string, unknown> {
  const columns = Object.fromEntries(Object.entries(e.row).filter(([k]) => !PARSED.has(k)));
  return {
    ...columns,
    has_vision: Boolean(e.row.has_vision),
    has_tools: Boolean(e.row.has_tools),
    size_gb: sizeGb(e),
    /** The machine's name ("unknown machine" where none was recorded). */
    machine: machineName(e),
    params: e.params,
    system: e.system,
    warnings: e.warnings,
    applied: e.applied,
    workload: e.workload,
    grid: e.grid.map(({ id: _, result_id: __, ...cell }) => cell),
    latency_percentiles: latencyPercentilesJson(e, percentiles),
    load_curve: e.load_curve.map(({ id: _, result_id: __, ...level }) => ({
      ...level,
      latency_percentiles: levelPercentilesJson(level, e.runs, percentiles),
    })),
    not_applied: e.applied ? notAppliedNames(e.applied) : [],
    comparison: e.comparison,
    comparison_note: e.comparison_note ?? null,
    // Stored runs as they are: `itl_json` holds each run's inter-token gaps (ms) as JSON text.
    runs: e.runs,
  };
}

/** The whole JSON report as an object. */
export function reportJson(data: ReportData): Record<string, unknown> {
  return {
    schema: REPORT_SCHEMA,
    report_id: data.id,
    generated_at: data.generated_at,
    tool: data.tool,
    source: data.source,
    rank_by: data.rank_by,
    options: data.options,
    percentiles: data.percentiles,
    system: data.system,
    machines: reportMachines(data.entries),
    parameter_sets: parameterSets(data.entries),
    compare_with: data.compare,
    summary: reportSummary(data.entries),
    results: data.entries.map((e) => entryJson(e, data.percentiles)),
  };
}

/** The JSON report as text (2-space indent, trailing newline). */
export function renderJson(data: ReportData): string {
  return JSON.stringify(reportJson(data), null, 2) + "\n";
}
