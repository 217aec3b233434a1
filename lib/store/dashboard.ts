/**
 * Read queries of the web dashboard: the results table, the dashboard statistics object and the
 * cache operations (one model's history: history.ts). Every aggregation runs in SQL.
 *
 * @module
 */
import { backup } from "node:sqlite";
import { isPostgres, sqliteOf, type SqlParam, type StoreDb } from "./database.ts";
import { sampleSummary, welchSummary } from "../student_t.ts";
import { clearResults } from "./clear.ts";
import { copyStore } from "./copy.ts";
import { openDatabase } from "./db.ts";
import { workloadText } from "./identity.ts";
import { plain, type Row } from "./rows.ts";

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
export const latestOf = (db: StoreDb): string => isPostgres(db) ? LATEST_PG : LATEST_SQLITE;

/** Columns of a results-table row. */
const RESULT_COLUMNS = `m.model_key, m.model_name, m.quantization, m.architecture, m.params_size,
  m.size_bytes, m.max_context_length, m.has_vision, m.has_tools, r.id AS result_id, r.backend,
  r.params_hash, r.finished_at, r.context_length, r.num_runs, r.runs_ok, r.runs_failed,
  COALESCE(r.tokens_per_sec_n, r.runs_ok) AS speed_n,
  r.n_parallel, r.tokens_per_sec_mean, r.tokens_per_sec_median, r.tokens_per_sec_p95,
  r.tokens_per_sec_min, r.tokens_per_sec_max, r.tokens_per_sec_std, r.tokens_per_sec_cv,
  r.ttft_ms_mean, r.ttft_ms_p95, r.e2e_tokens_per_sec_mean, r.prefill_tokens_per_sec_mean,
  r.total_ms_mean, r.vram_mb, r.tokens_per_sec_per_gb, r.parallel_tokens_per_sec, r.gpu_type,
  r.temp_c_mean, r.power_w_mean, r.result_count, r.params_json, r.machine_id,
  mc.hostname AS machine_name`;

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

function all<T>(db: StoreDb, sql: string, ...args: SqlParam[]): T[] {
  return db.prepare(sql).all(...args).map((r) => plain<T>(r));
}

/**
 * One row per identity (variant × backend × workload × load values × machine) with its latest
 * figures, metadata and change since the previous result of the same identity.
 */
export function resultsTable(db: StoreDb): ResultsTableRow[] {
  const rows = all<
    ResultsTableRow & {
      prev_std: number | null;
      prev_runs: number | null;
      params_json: string;
      speed_n: number | null;
    }
  >(
    db,
    `WITH ${latestOf(db)}
     SELECT ${RESULT_COLUMNS}, r.prev_id, p.tokens_per_sec_mean AS prev_tokens_per_sec,
       p.tokens_per_sec_std AS prev_std, COALESCE(p.tokens_per_sec_n, p.runs_ok) AS prev_runs,
       CASE WHEN p.tokens_per_sec_mean > 0 AND r.tokens_per_sec_mean IS NOT NULL
       THEN ROUND(CAST((r.tokens_per_sec_mean - p.tokens_per_sec_mean) * 100.0
         / p.tokens_per_sec_mean AS NUMERIC), 2) END AS speed_delta_pct
     FROM latest r JOIN models m ON m.id = r.model_id
       LEFT JOIN machines mc ON mc.id = r.machine_id
       LEFT JOIN results p ON p.id = r.prev_id AND p.backend = r.backend
     ORDER BY r.tokens_per_sec_mean DESC NULLS LAST, m.model_key`,
  );
  return rows.map(({ prev_std, prev_runs, prev_id: _, params_json, speed_n, ...row }) => {
    row.workload = workloadText(params_json);
    const now = sampleSummary(row.tokens_per_sec_mean, row.tokens_per_sec_std, speed_n);
    const before = sampleSummary(row.prev_tokens_per_sec, prev_std, prev_runs);
    const test = now && before ? welchSummary(now, before) : null;
    return { ...row, speed_delta_significant: test ? (test.p < 0.05 ? 1 : 0) : null };
  });
}

export { type DashboardStats, dashboardStats } from "./dashboard_stats.ts";

export { comparableModels, comparableVariants, HISTORY_LIMITS, modelHistory } from "./history.ts";
export type {
  ComparableVariant,
  HistoryPoint,
  HistorySeries,
  HistoryStats,
  HistoryWindow,
  ModelHistory,
} from "./history.ts";

/** Deletes a model variant and its history; returns the number of results removed (0: none). */
export function deleteModel(db: StoreDb, modelKey: string): number | null {
  const found = db.prepare("SELECT id FROM models WHERE model_key = ?").get(modelKey) as
    | { id: number }
    | undefined;
  if (!found) return null;
  const n = db.prepare("SELECT COUNT(*) AS n FROM results WHERE model_id = ?").get(found.id) as {
    n: number;
  };
  db.prepare("DELETE FROM models WHERE id = ?").run(found.id);
  return n.n;
}

/**
 * Copies the database to `backupFile` with SQLite's online backup (a PostgreSQL store: its
 * finished results copied into a new SQLite store there), then deletes every model,
 * result and run (clear.ts: in time that does not grow with the history). Returns the number of
 * results deleted.
 *
 * Not `VACUUM INTO`: it attaches the target database, which Deno refuses (`too many attached
 * databases - max 0`) unless the process runs with `--allow-all` — the tasks grant named
 * permissions only.
 */
export async function clearCache(db: StoreDb, backupFile: string): Promise<number> {
  if (isPostgres(db)) {
    // PostgreSQL: the backup is a SQLite store of its finished results (copy.ts), made first.
    const copy = openDatabase(backupFile);
    try {
      copyStore(db, copy);
    } finally {
      copy.close();
    }
    return clearResults(db);
  }
  await backup(sqliteOf(db), backupFile);
  return clearResults(db);
}
