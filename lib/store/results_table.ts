/**
 * The results table (`GET /api/results`, the Results page): one row per identity (variant ×
 * backend × workload × load values × machine) with its latest figures, metadata and change
 * since the previous result of the same identity, built in columns (lib/shared/columns.ts).
 *
 * The rows come from one statement over `identity_latest` (its newest and previous ids, schema
 * 12). On SQLite they are read as rows; on PostgreSQL the server aggregates them into one JSON
 * array of arrays (`json_agg`): the synchronous bridge (pg/bridge.ts) then carries one text value
 * instead of ~50 values for each of thousands of rows, which cost more than the query itself
 * (perf/dashboard_api_postgres.ts). PostgreSQL writes each double in its shortest exact form, so
 * both give the same numbers.
 *
 * @module
 */
import { isPostgres, type StoreDb } from "./database.ts";
import { sampleSummary, welchSummary } from "../student_t.ts";
import { type ColumnTable, rowsOf } from "../shared/columns.ts";
import { workloadText } from "./identity.ts";
import type { Row } from "./rows.ts";

/**
 * The newest finished result of each identity (model variant × parameters: backend, workload,
 * load values, machine) with `prev_id`, the ok result before it (schema 12), from
 * `identity_latest` (kept by triggers, see latest.ts): read in time proportional to the
 * identities, never derived from the history. Materialised, and `identity_latest` held as the
 * outer loop (CROSS JOIN), whatever the planner.
 */
const LATEST_SQLITE = `latest AS MATERIALIZED (
  SELECT lr.*, l.ok_results AS result_count, l.prev_id
  FROM identity_latest l CROSS JOIN results lr ON lr.id = l.result_id)`;

/**
 * The same on PostgreSQL, whose planner has no CROSS JOIN hint: it joined the two by hashing a
 * sequential scan of every result (20 ms a statement at 1 M runs, perf/dashboard_api_postgres.ts).
 * The ids taken as an array first make it seek each latest result by its primary key; not
 * materialised, so that each statement reads only the columns it uses (a materialised `lr.*` of
 * every latest result cost more than the seeks).
 */
const LATEST_PG = `latest AS NOT MATERIALIZED (
  SELECT lr.*, l.ok_results AS result_count, l.prev_id
  FROM results lr JOIN identity_latest l ON l.result_id = lr.id
  WHERE lr.id = ANY(ARRAY(SELECT result_id FROM identity_latest)))`;

/** The latest-results CTE in `db`'s dialect. */
const latestOf = (db: StoreDb): string => isPostgres(db) ? LATEST_PG : LATEST_SQLITE;

/**
 * The columns sent as they are read: name and SQL (aliases: r latest, m variant, mc machine, p
 * previous). The ones the Results page shows, filters and sorts by, and a result's identity;
 * the rest of a result's figures (spread, percentiles, hardware) are not sent: each double
 * costs PostgreSQL's formatting, the bridge, the encoding, the compression and the browser's
 * parse, thousands of times (docs/decisions.md).
 */
const SENT: [string, string][] = [
  ...["model_key", "model_name", "quantization", "architecture"].map((
    c,
  ): [string, string] => [c, `m.${c}`]),
  ["result_id", "r.id"],
  ...[
    "backend",
    "params_hash",
    "finished_at",
    "runs_ok",
    "runs_failed",
    "n_parallel",
    "tokens_per_sec_mean",
    "ttft_ms_mean",
    "vram_mb",
    "tokens_per_sec_per_gb",
    "parallel_tokens_per_sec",
    "result_count",
    "machine_id",
  ].map((c): [string, string] => [c, `r.${c}`]),
  ["machine_name", "mc.hostname"],
  ["prev_tokens_per_sec", "p.tokens_per_sec_mean"],
  [
    "speed_delta_pct",
    `CASE WHEN p.tokens_per_sec_mean > 0 AND r.tokens_per_sec_mean IS NOT NULL
       THEN ROUND(CAST((r.tokens_per_sec_mean - p.tokens_per_sec_mean) * 100.0
         / p.tokens_per_sec_mean AS NUMERIC), 2) END`,
  ],
];

/** Read for the computed columns, not sent. */
const READ: [string, string][] = [
  // Only where a workload is (the parameters hold the prompt: kilobytes a row, read for nothing).
  ["params_json", `CASE WHEN r.params_json LIKE '%"workload"%' THEN r.params_json END`],
  ["speed_std", "r.tokens_per_sec_std"],
  ["speed_n", "COALESCE(r.tokens_per_sec_n, r.runs_ok)"],
  ["prev_std", "p.tokens_per_sec_std"],
  ["prev_runs", "COALESCE(p.tokens_per_sec_n, p.runs_ok)"],
];

const ALL = [...SENT, ...READ];
const at = Object.fromEntries(ALL.map(([name], i) => [name, i]));

/** The columns of the answer: the sent ones, then the computed ones. */
export const RESULTS_COLUMNS: readonly string[] = [
  ...SENT.map(([name]) => name),
  "workload",
  "speed_delta_significant",
];

const FROM = `FROM latest r JOIN models m ON m.id = r.model_id
  LEFT JOIN machines mc ON mc.id = r.machine_id
  LEFT JOIN results p ON p.id = r.prev_id`;
const ORDER = "r.tokens_per_sec_mean DESC NULLS LAST, m.model_key";

/** The text columns; every other one holds numbers. */
const TEXT = new Set([
  "model_key",
  "model_name",
  "quantization",
  "architecture",
  "backend",
  "params_hash",
  "finished_at",
  "machine_id",
  "machine_name",
  "params_json",
]);
const NUMERIC = ALL.flatMap(([name], i) => TEXT.has(name) ? [] : [i]);

/**
 * A number that is not finite made null, as JSON has it: PostgreSQL's JSON writes a NaN or an
 * infinite double as a string ("Infinity"), SQLite gives the number (which JSON.stringify nulls).
 */
function finite(row: unknown[]): unknown[] {
  for (const i of NUMERIC) {
    const v = row[i];
    if (typeof v === "string" || (typeof v === "number" && !Number.isFinite(v))) row[i] = null;
  }
  return row;
}

/** Every row's values in {@linkcode ALL}'s order. */
function readRows(db: StoreDb): unknown[][] {
  if (isPostgres(db)) {
    const row = db.prepare(
      `WITH ${latestOf(db)} SELECT CAST(json_agg(json_build_array(${
        ALL.map(([, sql]) => sql).join(", ")
      }) ORDER BY ${ORDER}) AS TEXT) AS body ${FROM}`,
    ).get();
    return typeof row?.body === "string" ? (JSON.parse(row.body) as unknown[][]).map(finite) : [];
  }
  const rows = db.prepare(
    `WITH ${latestOf(db)} SELECT ${ALL.map(([name, sql]) => `${sql} AS ${name}`).join(", ")}
     ${FROM} ORDER BY ${ORDER}`,
  ).all() as Row[];
  return rows.map((r) => finite(ALL.map(([name]) => r[name] ?? null)));
}

/** The results table in columns ({@linkcode RESULTS_COLUMNS}). */
export function resultsColumns(db: StoreDb): ColumnTable {
  const rows = readRows(db).map((v) => {
    const now = sampleSummary(v[at.tokens_per_sec_mean!], v[at.speed_std!], v[at.speed_n!]);
    const before = sampleSummary(v[at.prev_tokens_per_sec!], v[at.prev_std!], v[at.prev_runs!]);
    const test = now && before ? welchSummary(now, before) : null;
    const out = v.slice(0, SENT.length);
    out.push(
      workloadText(v[at.params_json!] as string),
      test ? (test.p < 0.05 ? 1 : 0) : null,
    );
    return out;
  });
  return { columns: [...RESULTS_COLUMNS], rows };
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

/** The results table as one object per row (the page's first render, reports, tests). */
export function resultsTable(db: StoreDb): ResultsTableRow[] {
  return rowsOf<ResultsTableRow>(resultsColumns(db));
}
