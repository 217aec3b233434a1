/**
 * What every report is made from: one entry per model variant (its newest stored result, its
 * runs and the parsed JSON columns), the parameters, system information and an optional
 * comparison with an earlier report.
 *
 * @module
 */
import { type ResultRow, type ResultsStore, type Row, workloadText } from "../store/mod.ts";
import type { AppliedParams } from "../bench/mod.ts";
import { shortModelName } from "../shared/model_name.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** Change of one metric against an earlier report. */
export interface MetricDelta {
  previous_mean: number;
  current_mean: number;
  /** (current − previous) ÷ previous × 100. */
  delta_pct: number;
  /** Welch's t-test on the per-run samples; null with fewer than two runs on either side. */
  p_value: number | null;
  /** p < 0.05; null when the test could not run. */
  significant: boolean | null;
  n_previous: number;
  n_current: number;
}

/** Comparison of one model variant with the same variant in an earlier report. */
export interface EntryComparison {
  previous_report_id: string;
  previous_generated_at: string | null;
  /** Decode tokens per second. */
  speed: MetricDelta | null;
  /** Time to first token. */
  ttft: MetricDelta | null;
}

/** One model variant in a report. */
export interface ReportEntry {
  /** The stored result row (every measured and derived column). */
  row: ResultRow;
  /** Every stored run of the result (failed and parallel runs included). */
  runs: Row[];
  /** The measured parameters stored with the result (the values actually used). */
  params: Record<string, unknown>;
  /** System information stored with the result, or null. */
  system: Record<string, unknown> | null;
  warnings: string[];
  /** Every load and sampling value as requested and as applied; null for older results. */
  applied: AppliedParams | null;
  /** The controlled workload's grid (store `grid_cells`), empty without one. */
  grid: Row[];
  /** The load curve (store `load_levels`), empty without one. */
  load_curve: Row[];
  /** How the workload's lengths were reached (`results.workload_json`), null without one. */
  workload: Record<string, unknown> | null;
  /** Set when `--compare-with` found this result's like in the earlier report. */
  comparison: EntryComparison | null;
  /** With `--compare-with`, why nothing was comparable (null when compared or not asked). */
  comparison_note?: string | null;
}

/** The earlier report of a `--compare-with`. */
export interface ComparisonSource {
  file: string;
  report_id: string;
  generated_at: string | null;
}

/** One point of the speed history of a model variant (trend chart). */
export interface TrendPoint {
  report_id: string;
  tokens_per_sec: number;
}

/** Everything the exporters need. */
export interface ReportData {
  /** `<YYYYMMDD_HHMMSS>` of the file names. */
  id: string;
  generated_at: string;
  tool: { name: string; version: string };
  source: "benchmark" | "export-only";
  rank_by: RankBy;
  /** Run options that shape the report (filters, profiling limits, comparison...). */
  options: Record<string, unknown>;
  system: Record<string, unknown>;
  entries: ReportEntry[];
  /**
   * The latency percentiles (0–100, ascending) the latency and load-curve sections show:
   * `--percentiles`, else those stored with the results, else p50, p90, p99.
   */
  percentiles: number[];
  compare: ComparisonSource | null;
  /** Speed history per identity (see trendKey; only with `--compare-with`). */
  trend: Record<string, TrendPoint[]>;
}

/** Orders of the PDF's detailed table. */
export type RankBy = "speed" | "efficiency" | "ttft" | "vram";

function parseObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== "string" || text === "") return null;
  try {
    const value = JSON.parse(text);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

function parseList(text: unknown): string[] {
  if (typeof text !== "string" || text === "") return [];
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/** Builds the report entry of a stored result. */
export function entryOf(store: ResultsStore, row: ResultRow): ReportEntry {
  return {
    row,
    runs: store.runsOf(row.id),
    params: parseObject(row.params_json) ?? {},
    system: parseObject(row.system_json),
    warnings: parseList(row.warnings_json),
    applied: parseObject(row.applied_json) as AppliedParams | null,
    grid: store.gridOf(row.id),
    load_curve: store.loadLevelsOf(row.id),
    workload: parseObject(row.workload_json),
    comparison: null,
  };
}

/** A numeric column of an entry, or null. */
export function num(entry: ReportEntry, column: string): number | null {
  const v = entry.row[column];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The model size in GiB, or null. */
export function sizeGb(entry: ReportEntry): number | null {
  const bytes = num(entry, "size_bytes");
  return bytes === null ? null : bytes / 1024 ** 3;
}

/**
 * A short display name: `model_name` without its publisher (a file path: the file name without
 * extension), plus the quantization and, for a grid cell, its lengths (`pp64 tg16`).
 */
export function displayName(entry: ReportEntry): string {
  const short = shortModelName(entry.row.model_name);
  const name = short.split("/").at(-1) ?? short;
  const variant = entry.row.quantization ? `${name} @${entry.row.quantization}` : name;
  const tag = workloadTag(entry);
  return tag ? `${variant} · ${tag}` : variant;
}

/**
 * What tells an entry's workload apart from the other entries of its variant: a grid cell's
 * lengths (`pp64 tg16`), else the workload in words; null for the configured prompt.
 */
export function workloadTag(entry: ReportEntry): string | null {
  const cells = entry.workload?.cells;
  if (Array.isArray(cells) && cells.length === 1) return String(cells[0]);
  return workloadText(entry.row.params_json);
}

/** The model column of a results table: the short name and, beneath, the workload. */
export function modelCellText(entry: ReportEntry): string {
  const short = shortModelName(entry.row.model_name);
  const tag = workloadTag(entry);
  return tag ? `${short} · ${tag}` : short;
}

/** The successful sequential runs' values of a run column (the samples of the t-test). */
export function samplesOf(runs: readonly Row[], column: string): number[] {
  return runs.filter((r) =>
    (r.status ?? "ok") === "ok" && (r.parallel ?? 1) === 1 && (r.load_mode ?? null) === null
  )
    .map((r) => r[column])
    .filter((v): v is number => typeof v === "number" && Number.isFinite(v));
}
