/**
 * The CSV report: one row per model variant in a fixed, documented column order, quoted as
 * RFC 4180 says (fields with a comma, quote or line break are quoted, quotes doubled, CRLF lines).
 *
 * @module
 */
import { notAppliedNames, SERIES } from "../bench/mod.ts";
import {
  AGGREGATED_METRICS,
  LATENCY_METRICS,
  LATENCY_PERCENTILES,
  STAT_SUFFIXES,
} from "../store/mod.ts";
import { type ReportData, type ReportEntry, sizeGb } from "./model.ts";
import { gridText, loadText } from "./serving.ts";
import { machineName } from "./machines.ts";
import { type LatencyMetric, latencyPercentile, percentileLabel } from "./percentiles.ts";

/**
 * The CSV columns, in order (docs/benchmark.md "Reports" lists them); {@linkcode csvColumns} adds
 * the report's percentiles that are not among them.
 */
export const CSV_COLUMNS: readonly string[] = [
  "model_key",
  "model_name",
  "quantization",
  "architecture",
  "params_size",
  "size_gb",
  "max_context_length",
  "format",
  "has_vision",
  "has_tools",
  "backend",
  "params_hash",
  "machine_id",
  "machine_name",
  "started_at",
  "finished_at",
  "num_runs",
  "runs_ok",
  "runs_failed",
  "runs_excluded",
  "tokens_in",
  "tokens_out",
  ...AGGREGATED_METRICS.flatMap((m) => STAT_SUFFIXES.map((s) => `${m}_${s}`)),
  ...LATENCY_METRICS.flatMap((m) => LATENCY_PERCENTILES.map(([s]) => `${m}_${s}`)),
  "tokens_per_sec_per_gb",
  "tokens_per_sec_per_billion_params",
  "vram_mb",
  "load_time_ms",
  "warmup_ms",
  "n_parallel",
  "parallel_tokens_per_sec",
  "parallel_latency_ms_mean",
  "parallel_latency_ms_p95",
  "throttle_wait_s",
  ...SERIES.flatMap((h) => ["min", "max", "mean"].map((s) => `${h}_${s}`)),
  "gpu_type",
  "server_version",
  "app_version",
  "context_length",
  "prompt",
  "speed_delta_pct",
  "speed_p_value",
  "speed_significant",
  "ttft_delta_pct",
  "ttft_p_value",
  "ttft_significant",
  "not_applied",
  "grid",
  "load_curve",
  "warnings",
];

/**
 * Text a spreadsheet would run as a formula: starting with a tab or carriage return, or with `=`,
 * `+`, `-` or `@` after any leading whitespace and line breaks (spreadsheets trim them first).
 */
const FORMULA = /^(?:[\t\r]|\s*[=+\-@])/;

/**
 * Quotes one field as RFC 4180 says; null and undefined become an empty field. Text that a
 * spreadsheet would read as a formula ({@linkcode FORMULA}) gets a leading `'` so it stays text;
 * numbers (a negative delta) are written as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { csvField } from "./csv.ts";
 * assert.equal(csvField(" =1+1"), "' =1+1");
 * assert.equal(csvField("\n=1+1"), `"'\n=1+1"`);
 * assert.equal(csvField(-3.5), "-3.5");
 * ```
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const raw = String(value);
  const text = typeof value === "string" && FORMULA.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A column of a chosen percentile: `ttft_ms_p99.9` → metric and percentile. */
type PercentileColumn = { metric: LatencyMetric; p: number };

/**
 * The columns of a report with these percentiles: {@linkcode CSV_COLUMNS}, with
 * `<metric>_p<percentile>` (e.g. `ttft_ms_p99.9`) for each latency metric and each percentile the
 * fixed columns lack (p50 is `<metric>_median`, p95 `<metric>_p95`), right after the stored
 * `<metric>_p90`/`_p99` columns.
 */
export function csvColumns(percentiles: readonly number[]): {
  columns: string[];
  extra: Map<string, PercentileColumn>;
} {
  const extra = new Map<string, PercentileColumn>();
  for (const metric of LATENCY_METRICS as LatencyMetric[]) {
    for (const p of percentiles) {
      const column = `${metric}_${percentileLabel(p)}`;
      const stored = CSV_COLUMNS.includes(column) ||
        (p === 50 && CSV_COLUMNS.includes(`${metric}_median`));
      if (!stored) extra.set(column, { metric, p });
    }
  }
  const last = LATENCY_METRICS.at(-1)!;
  const at = CSV_COLUMNS.indexOf(`${last}_${LATENCY_PERCENTILES.at(-1)![0]}`) + 1;
  const columns = [...CSV_COLUMNS.slice(0, at), ...extra.keys(), ...CSV_COLUMNS.slice(at)];
  return { columns, extra };
}

function valueOf(e: ReportEntry, column: string, percentiles: readonly number[]): unknown {
  switch (column) {
    case "size_gb":
      return sizeGb(e);
    case "machine_name":
      return machineName(e);
    case "has_vision":
    case "has_tools":
      return Boolean(e.row[column]);
    case "speed_delta_pct":
      return e.comparison?.speed?.delta_pct;
    case "speed_p_value":
      return e.comparison?.speed?.p_value;
    case "speed_significant":
      return e.comparison?.speed?.significant;
    case "ttft_delta_pct":
      return e.comparison?.ttft?.delta_pct;
    case "ttft_p_value":
      return e.comparison?.ttft?.p_value;
    case "ttft_significant":
      return e.comparison?.ttft?.significant;
    case "grid":
      return gridText(e);
    case "load_curve":
      return loadText(e, percentiles);
    case "not_applied":
      return e.applied ? notAppliedNames(e.applied).join("; ") || null : null;
    case "warnings":
      return e.warnings.length ? e.warnings.join("; ") : null;
    default:
      return e.row[column];
  }
}

/** The CSV report as text: a header line, then one line per model variant. */
export function renderCsv(data: ReportData): string {
  const { columns, extra } = csvColumns(data.percentiles);
  const lines = [columns.map(csvField).join(",")];
  for (const e of data.entries) {
    lines.push(
      columns.map((c) => {
        const chosen = extra.get(c);
        const value = chosen
          ? latencyPercentile(e, chosen.metric, chosen.p)
          : valueOf(e, c, data.percentiles);
        return csvField(value);
      }).join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
