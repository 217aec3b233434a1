/**
 * The window of points `GET /api/comparison/{model_name}` answers with, from its query:
 * `?limit=N&before=CURSOR` (a page: at most N points, 1–5000, default 500, older than the
 * result `before`, the `next` of the previous page) or `?per_line=N` (every line downsampled to
 * at most N points, 4–5000). Anything else in these parameters is a usage error (400). And the
 * machine it asks for (`?machine=ID`, `unknown` for the results of an unknown machine).
 *
 * @module
 */
import { badRequest } from "../error.ts";
import { HISTORY_LIMITS, type HistoryWindow } from "../store/mod.ts";
import { UNKNOWN_MACHINE_KEY } from "../shared/machine.ts";

/** A whole number from `min` to `max` written in plain digits, else a usage error. */
function whole(name: string, text: string, min: number, max: number): number {
  const n = /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw badRequest(`'${name}' must be a whole number from ${min} to ${max}, not '${text}'`);
  }
  return n;
}

/**
 * The window the query asks for (`query(name)` reads one parameter).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparisonWindow } from "./comparison_window.ts";
 * const q = (params: Record<string, string>) => (k: string) => params[k];
 * assert.deepEqual(comparisonWindow(q({})), { kind: "page", limit: 500, before: null });
 * assert.deepEqual(comparisonWindow(q({ limit: "50", before: "812" })), {
 *   kind: "page",
 *   limit: 50,
 *   before: 812,
 * });
 * assert.deepEqual(comparisonWindow(q({ per_line: "400" })), { kind: "downsampled", perLine: 400 });
 * assert.throws(() => comparisonWindow(q({ limit: "0" })), /'limit' must be/);
 * ```
 * @throws {UsageError} a value that is not a whole number in range, or `per_line` with paging
 */
export function comparisonWindow(query: (name: string) => string | undefined): HistoryWindow {
  const [limit, before, perLine] = [query("limit"), query("before"), query("per_line")];
  if (perLine !== undefined) {
    if (limit !== undefined || before !== undefined) {
      throw badRequest("'per_line' downsamples every point: it takes no 'limit' or 'before'");
    }
    return {
      kind: "downsampled",
      perLine: whole("per_line", perLine, 4, HISTORY_LIMITS.maxPerLine),
    };
  }
  return {
    kind: "page",
    limit: limit === undefined
      ? HISTORY_LIMITS.page
      : whole("limit", limit, 1, HISTORY_LIMITS.maxPage),
    before: before === undefined ? null : whole("before", before, 1, Number.MAX_SAFE_INTEGER),
  };
}

/**
 * The machine the query asks for: undefined without `machine` (every machine), null for
 * `unknown` (the results of an unknown machine), else its id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparisonMachine } from "./comparison_window.ts";
 * assert.equal(comparisonMachine(() => undefined), undefined);
 * assert.equal(comparisonMachine(() => "unknown"), null);
 * assert.equal(comparisonMachine(() => "aaaa000000000001"), "aaaa000000000001");
 * assert.throws(() => comparisonMachine(() => ""), /'machine' must be/);
 * ```
 * @throws {UsageError} an empty or over-long value
 */
export function comparisonMachine(
  query: (name: string) => string | undefined,
): string | null | undefined {
  const asked = query("machine");
  if (asked === undefined) return undefined;
  if (asked === "" || asked.length > 200) {
    throw badRequest("'machine' must be a machine's id or 'unknown'");
  }
  return asked === UNKNOWN_MACHINE_KEY ? null : asked;
}
