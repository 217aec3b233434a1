/**
 * The results table (`GET /api/results`, the Results page): one row per identity (variant ×
 * backend × workload × load values × machine) with its latest figures, metadata and change
 * since the previous result of the same identity, built in columns (lib/shared/columns.ts).
 *
 * Read incrementally (result_figures.ts): each request reads `identity_latest`'s ids (its newest
 * and previous result, schema 12), the variants and the machines fresh, in one statement, and
 * takes the two results' figures from the connection's cache of finished results, fetching only
 * the ones it has not seen (after a new result: that one). The rows are put together here, in
 * the order the one statement of schema 12 sorted them (speed descending, unknown last, then the
 * variant's key, then the result id), with the change (Δ %) rounded as PostgreSQL's
 * `ROUND(CAST(x AS NUMERIC), 2)` rounds (below) on both backends, and Welch's test.
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { sampleSummary, welchSummary } from "../student_t.ts";
import { type ColumnTable, rowsOf } from "../shared/columns.ts";
import type { Row } from "./rows.ts";
import {
  figuresCacheOf,
  RESULT_SENT,
  type ResultFigures,
  type ResultFiguresCache,
} from "./result_figures.ts";

/**
 * The columns sent: the variant's, the latest result's id, figures and identity, the number of
 * finished results of the identity, the machine, the previous result's speed and the change.
 * The rest of a result's figures (spread, percentiles, hardware) are not sent: each double costs
 * the encoding, the compression and the browser's parse, thousands of times (docs/decisions.md).
 */
const SENT: readonly string[] = [
  "model_key",
  "model_name",
  "quantization",
  "architecture",
  "result_id",
  ...RESULT_SENT,
  "result_count",
  "machine_id",
  "machine_name",
  "prev_tokens_per_sec",
  "speed_delta_pct",
];

/** The columns of the answer: the sent ones, then the computed ones. */
export const RESULTS_COLUMNS: readonly string[] = [
  ...SENT,
  "workload",
  "speed_delta_significant",
];

/**
 * `x` rounded to two decimals as PostgreSQL's `ROUND(CAST(x AS NUMERIC), 2)` (the statement of
 * schema 12): the double made a decimal of 15 significant digits (`float8_numeric`), then
 * rounded half away from zero; null for a value that is not finite (JSON has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert";
 * import { roundPercent } from "./results_table.ts";
 * assert.equal(roundPercent(1.005), 1.01); // 1.00499999999999989… as a double
 * assert.equal(roundPercent(-2.675), -2.68);
 * assert.equal(roundPercent(Infinity), null);
 * ```
 */
export function roundPercent(x: number): number | null {
  if (!Number.isFinite(x)) return null;
  const text = x.toPrecision(15);
  const negative = text.startsWith("-");
  const [mantissa, exp] = text.replace("-", "").split("e");
  const [whole, fraction = ""] = mantissa!.split(".");
  const digits = whole! + fraction;
  // Where the decimal point is, counted in digits from the left.
  const point = whole!.length + Number(exp ?? 0);
  const keep = point + 2;
  if (keep >= digits.length) return Number(text);
  if (keep < 0) return 0;
  const up = digits.charCodeAt(keep) >= 53; // "5"
  const cents = Number(digits.slice(0, keep) || "0") + (up ? 1 : 0);
  const value = Number(`${cents}e-2`);
  return value === 0 ? 0 : negative ? -value : value;
}

/** PostgreSQL's `DESC NULLS LAST` of doubles: NaN first, then the largest, null last. */
function bySpeed(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return b - a > 0 ? 1 : b - a < 0 ? -1 : 0;
}

const SPEED = RESULT_SENT.indexOf("tokens_per_sec_mean");

/**
 * What the latest result `r` says against the previous one `p` (id `prevId`): the change in %
 * (as the SQL of schema 12 rounded it) and Welch's test (1 significant at p < 0.05, 0 not, null:
 * too few runs to tell); computed once per pair, kept with `r`'s figures.
 */
function compared(r: ResultFigures, prevId: number | null, p: ResultFigures | undefined) {
  if (prevId === null || !p) return NOT_COMPARED;
  if (r.compared?.prevId === prevId) return r.compared;
  const delta = p.speed !== null && p.speed > 0 && r.speed !== null
    ? roundPercent((r.speed - p.speed) * 100.0 / p.speed)
    : null;
  const now = sampleSummary(r.mean, r.std, r.n);
  const before = sampleSummary(p.mean, p.std, p.n);
  const test = now && before ? welchSummary(now, before) : null;
  const significant = test ? (test.p < 0.05 ? 1 : 0) : null;
  return r.compared = { prevId, delta, significant };
}

const NOT_COMPARED = { prevId: null, delta: null, significant: null } as const;

/**
 * The results table in columns ({@linkcode RESULTS_COLUMNS}); `cache` keeps the results'
 * figures between calls (by default the connection's own).
 */
export function resultsColumns(
  db: StoreDb,
  cache: ResultFiguresCache = figuresCacheOf(db),
): ColumnTable {
  const keys = cache.keys(db);
  const ids = new Set<number>();
  for (const [, resultId, prevId] of keys.identities) {
    ids.add(resultId);
    if (prevId !== null) ids.add(prevId);
  }
  const figures = cache.figures(db, ids);
  const models = new Map(keys.models.map((m) => [m[0], m]));
  const hosts = new Map(keys.machines);
  const rows: { speed: number | null; key: string; id: number; values: unknown[] }[] = [];
  for (const [modelId, resultId, prevId, count] of keys.identities) {
    const m = models.get(modelId);
    const r = figures.get(resultId);
    if (!m || !r) continue; // deleted since the ids were read: the next request sees it
    const p = prevId === null ? undefined : figures.get(prevId);
    const c = compared(r, prevId, p);
    const values: unknown[] = [m[1], m[2], m[3], m[4], resultId];
    for (const v of r.sent) values.push(v);
    values.push(
      count,
      r.machineId,
      r.machineId === null ? null : hosts.get(r.machineId) ?? null,
      p ? p.sent[SPEED] : null,
      c.delta,
      r.workload,
      c.significant,
    );
    rows.push({ speed: r.speed, key: m[1], id: resultId, values });
  }
  rows.sort((a, b) =>
    bySpeed(a.speed, b.speed) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || a.id - b.id
  );
  return { columns: [...RESULTS_COLUMNS], rows: rows.map((r) => r.values) };
}

/** One row of `GET /api/results`. */
export type ResultsTableRow = Row & {
  model_key: string;
  model_name: string;
  quantization: string | null;
  backend: string;
  /** The machine it ran on (`machines.id`, host name), null for an unknown machine. */
  machine_id: string | null;
  machine_name: string | null;
  /** The workload in words (`prompt 64 tokens · 128 out`), null for the configured prompt. */
  workload: string | null;
  tokens_per_sec_mean: number | null;
  prev_tokens_per_sec: number | null;
  speed_delta_pct: number | null;
  /**
   * Whether the change is significant (1) or not (0): Welch's t-test on the two results' run
   * statistics, p < 0.05; null when either has too few runs to tell.
   */
  speed_delta_significant: 1 | 0 | null;
};

/**
 * The results table as one object per row (the page's first render, the statistics, tests);
 * `cache` as in {@linkcode resultsColumns}.
 */
export function resultsTable(
  db: StoreDb,
  cache: ResultFiguresCache = figuresCacheOf(db),
): ResultsTableRow[] {
  return rowsOf<ResultsTableRow>(resultsColumns(db, cache));
}
