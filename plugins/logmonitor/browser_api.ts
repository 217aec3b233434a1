/**
 * Browser-side access to the log monitor (no Deno APIs): JSON calls with the session's CSRF
 * token, the push socket, and small view helpers shared by the log viewer island.
 *
 * @module
 */

import { PLUGIN_ID } from "./id.ts";

/** A parsed line as the API returns it. */
export interface ClientLine {
  timestamp: string;
  logger: string;
  level: string;
  message: string;
  raw: string;
  _source_file?: string;
  /** A pushed line that continues the entry above it (sent after that entry). */
  continuation?: boolean;
}

/** Base path of the log monitor's API (`/plugin/<id>`). */
export const API_BASE = `/plugin/${PLUGIN_ID}`;

/** The name of an export's file (`<id>_export.csv`, `.txt`). */
export const exportFileName = (format: string): string => `${PLUGIN_ID}_export.${format}`;

/** Calls the log monitor; throws an Error with the server's `error` text on failure. */
export async function api<T>(
  path: string,
  csrfToken: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const res = await fetch(`${API_BASE}${path}`, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/json",
      ...(init.method && init.method !== "GET" ? { "X-CSRF-Token": csrfToken } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new Error(typeof body.error === "string" ? body.error : `HTTP ${res.status}`);
  }
  return res.headers.get("content-type")?.includes("json")
    ? await res.json()
    : await res.blob() as T;
}

/** Builds the search query string (levels repeated). */
export function searchQuery(p: {
  file: string;
  query: string;
  levels: string[];
  offset: number;
  limit: number;
  caseSensitive: boolean;
  useRegex: boolean;
}): string {
  const q = new URLSearchParams({
    file: p.file,
    query: p.query,
    offset: String(p.offset),
    limit: String(p.limit),
    case_sensitive: String(p.caseSensitive),
    use_regex: String(p.useRegex),
  });
  for (const l of p.levels) q.append("levels", l);
  return q.toString();
}

/** Total shown for a search: exact when the scan reached the end, else "at least". */
export function totalLabel(total: number, offset: number, limit: number): string {
  return total > offset + limit ? `${offset + limit}+` : String(total);
}

/** Level ranking for the alert badge colour (highest present wins). */
export const LEVEL_RANK = ["DEBUG", "INFO", "UNKNOWN", "WARNING", "ERROR", "CRITICAL"];

/** The highest level with a non-zero count, or null. */
export function highestLevel(counts: Record<string, number>): string | null {
  let best: string | null = null;
  for (const l of LEVEL_RANK) if ((counts[l] ?? 0) > 0) best = l;
  return best;
}

/**
 * The live tail after a push: each continuation line (a traceback written after its entry was
 * sent) joins the newest entry of its file, on a new line of its message; other lines are new
 * rows. A continuation whose entry is no longer shown stands alone. The newest `max` rows stay.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appendLiveLines } from "./browser_api.ts";
 * const entry = { timestamp: "t", logger: "app", level: "ERROR", message: "boom", raw: "E boom" };
 * const more = { ...entry, message: "Traceback:", raw: "Traceback:", continuation: true };
 * const rows = appendLiveLines([entry], [more], 100);
 * assert.deepEqual(rows.map((r) => r.message), ["boom\nTraceback:"]);
 * assert.equal(rows[0]!.raw, "E boom\nTraceback:");
 * ```
 */
export function appendLiveLines(
  shown: ClientLine[],
  pushed: ClientLine[],
  max: number,
): ClientLine[] {
  const rows = [...shown];
  for (const line of pushed) {
    if (line.continuation) {
      const at = rows.findLastIndex((r) => r._source_file === line._source_file);
      if (at >= 0) {
        const entry = rows[at]!;
        rows[at] = {
          ...entry,
          message: `${entry.message}\n${line.message}`,
          raw: `${entry.raw}\n${line.raw}`,
        };
        continue;
      }
    }
    rows.push(line);
  }
  return rows.slice(-max);
}
