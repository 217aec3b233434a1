/**
 * Builds the report data: the entries of a benchmark (its newly tested variants) or of
 * `--export-only` (the newest stored result of every variant that passes the filters), the
 * comparison and the trend.
 *
 * @module
 */
import { applyFilters, type FilterOptions, type RunOptions, type Target } from "../bench/mod.ts";
import type { ResultRow, ResultsStore } from "../store/mod.ts";
import { VERSION } from "../version.ts";
import { applyComparison, type PreviousReport, speedTrend } from "./compare.ts";
import { entryOf, type ReportData, type ReportEntry } from "./model.ts";
import { reportOptions } from "./parameters.ts";
import { reportPercentiles } from "./percentiles.ts";
import { systemInfo } from "./system.ts";
import { compareNames } from "./rank.ts";

/** `YYYYMMDD_HHMMSS` in local time: the id in the report file names. */
export function reportId(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}_` +
    `${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/** The filter view of a stored result. */
export function targetOfRow(row: ResultRow): Target {
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  const int = (v: unknown) => (typeof v === "number" ? v : null);
  return {
    key: row.model_key,
    model_name: row.model_name,
    quantization: row.quantization,
    architecture: str(row.architecture),
    params_string: str(row.params_size),
    size_bytes: int(row.size_bytes),
    max_context_length: int(row.max_context_length),
    format: str(row.format),
    vision: Boolean(row.has_vision),
    tools: Boolean(row.has_tools),
  };
}

/** Entries of the results a benchmark just stored (one per identity, in the order they ran). */
export function benchmarkEntries(store: ResultsStore, resultIds: readonly number[]): ReportEntry[] {
  return store.finishedResults(resultIds).map((r) => entryOf(store, r));
}

/** Entries of `--export-only`: the newest result of every identity whose variant passes the filters. */
export function exportEntries(store: ResultsStore, filters: FilterOptions): ReportEntry[] {
  const rows = store.latestPerIdentity();
  const { kept } = applyFilters(rows.map(targetOfRow), filters);
  const keep = new Set(kept.map((t) => t.key));
  return rows.filter((r) => keep.has(r.model_key))
    .sort((a, b) => compareNames(a.model_key, b.model_key) || a.id - b.id)
    .map((r) => entryOf(store, r));
}

/** Options of {@linkcode buildReport}. */
export interface BuildOptions {
  source: ReportData["source"];
  options: RunOptions;
  resultsDir: string;
  /** The earlier report of `--compare-with`, already loaded. @default null */
  previous?: PreviousReport | null;
  /** @default () => new Date() */
  now?: () => Date;
}

/** Assembles the report data (comparison and trend included). */
export async function buildReport(
  entries: ReportEntry[],
  options: BuildOptions,
): Promise<ReportData> {
  const now = (options.now ?? (() => new Date()))();
  const id = reportId(now);
  const previous = options.previous ?? null;
  if (previous) applyComparison(entries, previous);
  return {
    id,
    generated_at: now.toISOString(),
    tool: { name: "localbench", version: VERSION },
    source: options.source,
    rank_by: options.options.rank_by,
    options: reportOptions(options.options),
    system: systemInfo(entries),
    entries,
    percentiles: reportPercentiles(entries, options.options.percentiles),
    compare: previous?.source ?? null,
    trend: previous ? await speedTrend(options.resultsDir, entries, id) : {},
  };
}
