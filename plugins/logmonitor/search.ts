/**
 * Search of a log file as a stream (never read whole): entries (see `entries.ts`) with a line
 * matching the query (plain text or regular expression, optionally case-sensitive) and a level
 * allowed by the filter. Scanning stops once the requested page plus one more match is
 * complete, so `total` means "at least". Plain text is searched as bytes (linear time; letters
 * beyond ASCII through their case forms, `case_variants.ts`); regular expressions run on RE2,
 * also in linear time, in a worker with a time budget (`regex_worker.ts`), on the lines holding
 * the text every match holds (`regex_literal.ts`) or, for a pattern without such text, on the
 * lines its prefilter automaton lets through (`regex_dfa.ts`).
 *
 * @module
 */
import { UsageError } from "../../lib/error.ts";
import { type Level, LEVELS, type ParsedLine } from "./parse.ts";
import { caseVariantPlan, hasCaseVariants } from "./case_variants.ts";
import { requiredLiterals } from "./regex_literal.ts";
import { MAX_REGEX_LINE, REGEX_BUDGET_MS, RegexRunner } from "./regex_worker.ts";
import { buildDfa, type Dfa, dfaAccepts } from "./regex_dfa.ts";
import { type Candidates, scanFile, type ScanOptions } from "./search_scan.ts";

/** Hard cap of `limit`. */
export const MAX_PAGE = 1000;
/** Longest query in characters. */
export const MAX_QUERY = 1000;

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
 * @throws {UsageError} for non-integer, negative or too large paging values and unknown levels.
 */
export function parseSearchParams(raw: RawSearchQuery, pageSize: number): SearchParams {
  const offset = toInt(raw.offset, 0);
  const limit = toInt(raw.limit, pageSize);
  if (offset === null || limit === null) {
    throw new UsageError("offset and limit must be integers");
  }
  if (offset < 0) throw new UsageError("offset must be a non-negative integer");
  if (limit < 1) throw new UsageError("limit must be a positive integer");
  if (limit > MAX_PAGE) throw new UsageError(`limit exceeds maximum of ${MAX_PAGE}`);
  const bad = raw.levels.filter((l) =>
    !(LEVELS as readonly string[]).includes(l.trim().toUpperCase())
  );
  if (bad.length > 0) throw new UsageError(`Invalid severity level(s): ${bad.join(", ")}`);
  if ((raw.query ?? "").length > MAX_QUERY) {
    throw new UsageError(`query is longer than ${MAX_QUERY} characters`);
  }
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

/** Levels whose entries always hold the level's word (ASCII, any case) in their first line. */
const WORD_LEVELS: ReadonlySet<Level> = new Set(["DEBUG", "WARNING", "ERROR", "CRITICAL"]);

const encoder = new TextEncoder();

/**
 * Compiles a client's pattern (the flags a search uses).
 *
 * @throws {UsageError} `Invalid search pattern: ...`.
 */
export function compilePattern(query: string, caseSensitive: boolean): RegExp {
  try {
    return new RegExp(query, caseSensitive ? "" : "i");
  } catch (err) {
    throw new UsageError(`Invalid search pattern: ${err instanceof Error ? err.message : err}`);
  }
}

/** Whether the automaton decides `line` alone (ASCII, no CR, not cut: `Dfa.asciiExact`). */
function decides(dfa: Dfa | null, line: string): dfa is Dfa {
  if (dfa === null || !dfa.asciiExact || line.length > MAX_REGEX_LINE) return false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 0x80 || c === 0x0d) return false;
  }
  return true;
}

/**
 * The indices of the candidate `lines` (decoded, without CR) that match: decided by the
 * automaton where it can (no worker started for them), else by RE2.
 */
async function verifyLines(
  lines: string[],
  dfa: Dfa | null,
  runner: RegexRunner,
): Promise<number[]> {
  const asked = lines.flatMap((l, k) => decides(dfa, l) ? [] : [k]);
  const matched = new Set<number>();
  if (asked.length > 0) {
    const bytes = encoder.encode(asked.map((k) => lines[k]).join("\n"));
    for (const j of await runner.matchLines(bytes)) matched.add(asked[j]!);
  }
  return lines.flatMap((l, k) =>
    matched.has(k) || (decides(dfa, l) && dfaAccepts(dfa, l)) ? [k] : []
  );
}

/** Options of {@linkcode searchFile}. */
export interface SearchFileOptions extends ScanOptions {
  /** Time budget of a regex search in ms. @default REGEX_BUDGET_MS */
  regexBudgetMs?: number;
}

/**
 * Searches a file (a path, or a handle opened and checked by the caller). An entry matches
 * when one of its lines holds the query and its level is allowed.
 *
 * @throws {UsageError} for a bad pattern, {UnprocessableError} when RE2 refuses a regex
 * (`regex_unsupported`) or it runs out of time, {UnavailableError} when too many regex searches
 * run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSearchParams, searchFile } from "./search.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "a\nb a\nc\n");
 * const r = await searchFile(path, parseSearchParams({ query: "a", levels: [], limit: "1" }, 50));
 * assert.ok(r.results.length === 1 && r.total === 2);
 * await Deno.remove(path);
 * ```
 */
export async function searchFile(
  source: string | Deno.FsFile,
  params: SearchParams,
  options: SearchFileOptions = {},
): Promise<SearchResult> {
  const { query, caseSensitive } = params;
  const empty = { results: [], total: 0, offset: params.offset, limit: params.limit };
  const levels = params.levels.size === LEVELS.length ? null : params.levels;
  let runner: RegexRunner | null = null;
  let candidates: Candidates;
  if (query === "") {
    candidates = levels && [...levels].every((l) => WORD_LEVELS.has(l))
      ? { kind: "needles", needles: [...levels].map((l) => encoder.encode(l)), fold: true }
      : { kind: "every" };
  } else if (!params.useRegex) {
    if (/[\r\n]/.test(query)) return empty;
    if (!caseSensitive && [...query].some(hasCaseVariants)) {
      const plan = caseVariantPlan(query);
      candidates = {
        kind: "needles",
        needles: plan.needles,
        fold: plan.fold,
        verify: (lines) => Promise.resolve(lines.flatMap((l, k) => plan.test(l) ? [k] : [])),
      };
    } else {
      candidates = { kind: "needles", needles: [encoder.encode(query)], fold: !caseSensitive };
    }
  } else {
    compilePattern(query, caseSensitive);
    const literals = requiredLiterals(query, !caseSensitive);
    const dfa = await buildDfa(query, !caseSensitive);
    // With an automaton, lines seldom need RE2: its worker starts only when one does.
    const open = await RegexRunner.open(
      query,
      !caseSensitive,
      options.regexBudgetMs ?? REGEX_BUDGET_MS,
      dfa !== null,
    );
    runner = open;
    const match = (bytes: Uint8Array) => open.matchLines(bytes);
    const verify = (lines: string[]) => verifyLines(lines, dfa, open);
    candidates = dfa && literals === null
      ? {
        kind: "dfa",
        table: dfa.table,
        lineCap: MAX_REGEX_LINE,
        asciiExact: dfa.asciiExact,
        match,
      }
      : literals === null
      ? { kind: "lines", match }
      : {
        kind: "needles",
        needles: literals.map((l) => encoder.encode(l)),
        fold: !caseSensitive,
        verify,
      };
  }
  let file: Deno.FsFile;
  try {
    file = typeof source === "string" ? await Deno.open(source, { read: true }) : source;
  } catch (err) {
    runner?.close();
    throw err;
  }
  try {
    const r = await scanFile(file, {
      candidates,
      levels,
      offset: params.offset,
      limit: params.limit,
    }, options);
    return { results: r.results, total: r.total, offset: params.offset, limit: params.limit };
  } finally {
    runner?.close();
    if (typeof source === "string") file.close();
  }
}
