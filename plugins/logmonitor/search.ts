/**
 * Search of a log file as a stream (never read whole): lines matching the query (plain text
 * or regular expression, optionally case-sensitive) and the level filter. Scanning stops once
 * the requested page plus one more match is complete, so `total` means "at least".
 *
 * @module
 */
import { AppError } from "../../lib/error.ts";
import { type Level, LEVELS, type ParsedLine, parseLine } from "./parse.ts";

/** Hard cap of `limit`. */
export const MAX_PAGE = 1000;

/** Search parameters after validation. */
export interface SearchParams {
  query: string;
  levels: Set<Level>;
  offset: number;
  limit: number;
  caseSensitive: boolean;
  useRegex: boolean;
}

/** The search response. */
export interface SearchResult {
  results: ParsedLine[];
  /** Matches found before the scan stopped: at most `offset + limit + 1`. */
  total: number;
  offset: number;
  limit: number;
}

/** Raw query values: single values and the repeated `levels`. */
export interface RawSearchQuery {
  query?: string;
  levels: string[];
  offset?: string;
  limit?: string;
  case_sensitive?: string;
  use_regex?: string;
}

function toInt(value: string | undefined, fallback: number): number | null {
  if (value === undefined) return fallback;
  const t = value.trim();
  return /^[+-]?\d+$/.test(t) ? Number(t) : null;
}

/**
 * Validates the query parameters with the reference's messages.
 *
 * @throws {AppError} 400 for non-integer, negative or too large paging values and unknown levels.
 */
export function parseSearchParams(raw: RawSearchQuery, pageSize: number): SearchParams {
  const offset = toInt(raw.offset, 0);
  const limit = toInt(raw.limit, pageSize);
  if (offset === null || limit === null) {
    throw new AppError(400, "offset and limit must be integers");
  }
  if (offset < 0) throw new AppError(400, "offset must be a non-negative integer");
  if (limit < 1) throw new AppError(400, "limit must be a positive integer");
  if (limit > MAX_PAGE) throw new AppError(400, `limit exceeds maximum of ${MAX_PAGE}`);
  const bad = raw.levels.filter((l) =>
    !(LEVELS as readonly string[]).includes(l.trim().toUpperCase())
  );
  if (bad.length > 0) throw new AppError(400, `Invalid severity level(s): ${bad.join(", ")}`);
  const levels = new Set<Level>(
    raw.levels.length === 0 ? LEVELS : raw.levels.map((l) => l.trim().toUpperCase() as Level),
  );
  return {
    query: raw.query ?? "",
    levels,
    offset,
    limit,
    caseSensitive: raw.case_sensitive?.toLowerCase() === "true",
    useRegex: raw.use_regex?.toLowerCase() === "true",
  };
}

interface Matcher {
  /** Whether a line matches the text query. */
  line(text: string): boolean;
  /** Whether a block of lines can contain a match (false skips the block). */
  block(text: string): boolean;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Builds the text matcher.
 *
 * @throws {AppError} 400 `Invalid search pattern: ...` for a bad regular expression.
 */
export function buildMatcher(
  params: Pick<SearchParams, "query" | "caseSensitive" | "useRegex">,
): Matcher {
  const { query, caseSensitive, useRegex } = params;
  if (query === "") return { line: () => true, block: () => true };
  if (!useRegex && caseSensitive) {
    return { line: (t) => t.includes(query), block: (t) => t.includes(query) };
  }
  let re: RegExp;
  try {
    re = new RegExp(useRegex ? query : escapeRegExp(query), caseSensitive ? "" : "i");
  } catch (err) {
    throw new AppError(400, `Invalid search pattern: ${err instanceof Error ? err.message : err}`);
  }
  return { line: (t) => re.test(t), block: useRegex ? () => true : (t) => re.test(t) };
}

/** Options of {@linkcode searchFile}. */
export interface SearchFileOptions {
  /** Bytes read at a time. @default 1 MiB */
  chunkSize?: number;
}

/**
 * Searches a file. A line matches when the query is found in it (the parsed message is part
 * of the raw line) and its level is allowed.
 *
 * @example
 * ```ts
 * import { parseSearchParams, searchFile } from "./search.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "a\nb a\nc\n");
 * const r = await searchFile(path, parseSearchParams({ query: "a", levels: [], limit: "1" }, 50));
 * console.assert(r.results.length === 1 && r.total === 2);
 * await Deno.remove(path);
 * ```
 */
export async function searchFile(
  path: string,
  params: SearchParams,
  options: SearchFileOptions = {},
): Promise<SearchResult> {
  const matcher = buildMatcher(params);
  const allLevels = params.levels.size === LEVELS.length;
  const stopAt = params.offset + params.limit + 1;
  const results: ParsedLine[] = [];
  let count = 0;
  const consider = (line: string): boolean => {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (!matcher.line(text)) return false;
    let parsed: ParsedLine | null = null;
    if (!allLevels) {
      parsed = parseLine(text);
      if (!params.levels.has(parsed.level)) return false;
    }
    if (count >= params.offset && count < params.offset + params.limit) {
      results.push(parsed ?? parseLine(text));
    }
    count++;
    return count >= stopAt;
  };

  const file = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(options.chunkSize ?? 1024 * 1024);
    const decoder = new TextDecoder("utf-8", { fatal: false });
    let carry = "";
    while (true) {
      const n = await file.read(buf);
      const eof = n === null;
      const text = carry +
        (eof ? decoder.decode() : decoder.decode(buf.subarray(0, n), { stream: true }));
      const cut = eof
        ? (text.endsWith("\n") ? text.length - 1 : text.length)
        : text.lastIndexOf("\n");
      if (cut < 0 && text.length < 16 * 1024 * 1024) {
        carry = text;
        continue;
      }
      const block = cut < 0 ? text : text.slice(0, cut);
      carry = cut < 0 ? "" : text.slice(cut + 1);
      if (block !== "" && matcher.block(block)) {
        for (const line of block.split("\n")) if (consider(line)) return finish();
      }
      if (eof) return finish();
    }
  } finally {
    file.close();
  }

  function finish(): SearchResult {
    return { results, total: count, offset: params.offset, limit: params.limit };
  }
}
