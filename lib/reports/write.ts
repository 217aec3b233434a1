/**
 * Writes the four report files `benchmark_results_<id>.{json,csv,pdf,html}` into the results
 * folder. Each exporter runs on its own: a failing one is reported and the others still write.
 *
 * @module
 */
import { exists, writeFailureReason, writeFileAtomic } from "../fs.ts";
import { join } from "node:path";
import { messageOf } from "../error.ts";
import { renderCsv } from "./csv.ts";
import { renderHtml, renderPdf } from "./exporters.ts";
import { renderJson } from "./json.ts";
import type { ReportData } from "./model.ts";

/** Report formats, in the order they are written. */
export type ReportFormat = "json" | "csv" | "pdf" | "html";

/** Renders one format. */
export type Exporter = (data: ReportData) => Promise<string | Uint8Array> | string | Uint8Array;

/** The exporters of each format. */
export const EXPORTERS: Readonly<Record<ReportFormat, Exporter>> = {
  json: renderJson,
  csv: renderCsv,
  pdf: renderPdf,
  html: renderHtml,
};

/** What {@linkcode writeReports} did. */
export interface WriteOutcome {
  /** Written files by format. */
  files: Partial<Record<ReportFormat, string>>;
  /** Exporters that failed, with their error messages. */
  errors: { format: ReportFormat; message: string }[];
}

/** Options of {@linkcode writeReports}. */
export interface WriteOptions {
  /** @default EXPORTERS */
  exporters?: Partial<Record<ReportFormat, Exporter>>;
}

/** The file name of a report. */
export function reportFileName(id: string, format: ReportFormat): string {
  return `benchmark_results_${id}.${format}`;
}

/**
 * Writes every report format into `dir` (created when missing). When files of `data.id` already
 * exist (two reports in one second), the id gets a `_2`, `_3`... suffix so nothing is overwritten.
 */
export async function writeReports(
  data: ReportData,
  dir: string,
  options: WriteOptions = {},
): Promise<WriteOutcome> {
  const exporters = options.exporters ?? EXPORTERS;
  const formats = Object.keys(exporters) as ReportFormat[];
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (err) {
    // A folder that cannot be made fails every report, each said as the others would be.
    const reason = writeFailureReason(err);
    if (reason === null) throw err;
    const message = `cannot create the folder ${dir} (${reason})`;
    return { files: {}, errors: formats.map((format) => ({ format, message })) };
  }
  const base = data.id;
  for (let i = 2; await anyExists(dir, data.id, formats); i++) data.id = `${base}_${i}`;
  const outcome: WriteOutcome = { files: {}, errors: [] };
  for (const format of formats) {
    const path = join(dir, reportFileName(data.id, format));
    try {
      await writeFileAtomic(path, await exporters[format]!(data));
      outcome.files[format] = path;
    } catch (err) {
      outcome.errors.push({ format, message: messageOf(err) });
    }
  }
  return outcome;
}

async function anyExists(dir: string, id: string, formats: ReportFormat[]): Promise<boolean> {
  for (const f of formats) if (await exists(join(dir, reportFileName(id, f)))) return true;
  return false;
}

/** Lines telling what was written and what failed. */
export function outcomeLines(outcome: WriteOutcome): string[] {
  const lines = Object.entries(outcome.files).map(([f, path]) =>
    `Report (${f.toUpperCase()}): ${path}`
  );
  for (const e of outcome.errors) {
    lines.push(`Cannot write the ${e.format.toUpperCase()} report: ${e.message}`);
  }
  return lines;
}
