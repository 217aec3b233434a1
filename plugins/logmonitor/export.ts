/**
 * Export of search results as CSV (header, CRLF, minimal quoting) or TXT
 * (`<timestamp> - <logger> - <level> - <message>` per line, no header, no trailing newline).
 *
 * @module
 */
import { UsageError } from "../../lib/error.ts";
import { isPlainObject } from "../../lib/shared/json_object.ts";
import { exportFileName } from "./browser_api.ts";

/** Most entries one export may hold. */
export const MAX_EXPORT = 1000;

/** An exported file. */
export interface ExportFile {
  body: string;
  contentType: string;
  filename: string;
}

const FIELDS = ["timestamp", "logger", "level", "message"] as const;

function field(item: Record<string, unknown>, key: string): string {
  const v = item[key];
  return v === undefined || v === null ? "" : String(v);
}

/**
 * One CSV cell. A cell that a spreadsheet would read as a formula (starting with a tab or carriage
 * return, or with `=`, `+`, `-` or `@` after any leading whitespace and line breaks, which
 * spreadsheets trim) gets a leading `'` so it stays text.
 */
export function csvCell(value: string): string {
  const s = /^(?:[\t\r]|\s*[=+\-@])/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * Validates and renders an export.
 *
 * @throws {UsageError} `results must be a list of at most 1000 entries` or `Invalid format`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderExport } from "./export.ts";
 * const f = renderExport([{ timestamp: "t", logger: "l", level: "INFO", message: "a,b" }], "csv");
 * assert.equal(f.body, 'timestamp,logger,level,message\r\nt,l,INFO,"a,b"\r\n');
 * ```
 */
export function renderExport(results: unknown, format: unknown): ExportFile {
  if (!Array.isArray(results) || results.length > MAX_EXPORT) {
    throw new UsageError(`results must be a list of at most ${MAX_EXPORT} entries`);
  }
  const fmt = format === undefined || format === null ? "csv" : String(format).toLowerCase();
  if (fmt !== "csv" && fmt !== "txt") throw new UsageError("Invalid format");
  const items = results.map((item) => {
    if (!isPlainObject(item)) {
      throw new UsageError("results must contain objects");
    }
    return item;
  });
  if (fmt === "csv") {
    const rows = [
      FIELDS.join(","),
      ...items.map((i) => FIELDS.map((k) => csvCell(field(i, k))).join(",")),
    ];
    return {
      body: rows.map((r) => r + "\r\n").join(""),
      contentType: "text/csv; charset=utf-8",
      filename: exportFileName("csv"),
    };
  }
  return {
    body: items.map((i) => FIELDS.map((k) => field(i, k)).join(" - ")).join("\n"),
    contentType: "text/plain; charset=utf-8",
    filename: exportFileName("txt"),
  };
}
