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
import { openDatabase, transaction } from "./db.ts";
import { workloadText } from "./identity.ts";
import { plain, type Row } from "./rows.ts";

/**
 * The newest finished result of each identity (model variant × parameters: backend, workload,
 * load values), from `identity_latest` (kept by triggers, see latest.ts): read in time
 * proportional to the identities, never derived from the history. Materialised, and
 * `identity_latest` held as the outer loop (CROSS JOIN), whatever the planner.
 */
const LATEST_SQLITE = `latest AS MATERIALIZED (
  SELECT lr.*, l.ok_results AS result_count
  FROM identity_latest l CROSS JOIN results lr ON lr.id = l.result_id)`;

/**
 * The same on PostgreSQL, whose planner has no CROSS JOIN hint: it joined the two by hashing a
 * sequential scan of every result (20 ms a statement at 1 M runs, perf/dashboard_api_postgres.ts).
 * The ids taken as an array first make it seek each latest result by its primary key; not
 * materialised, so that each statement reads only the columns it uses (a materialised `lr.*` of
 * every latest result cost more than the seeks).
 */
const LATEST_PG = `latest AS NOT MATERIALIZED (
  SELECT lr.*, l.ok_results AS result_count
  FROM results lr JOIN identity_latest l ON l.result_id = lr.id
  WHERE lr.id = ANY(ARRAY(SELECT result_id FROM identity_latest)))`;

/** The latest-results CTE in `db`'s dialect. */
const latestOf = (db: StoreDb): string => isPostgres(db) ? LATEST_PG : LATEST_SQLITE;

/**
 * The finished result before `r` of the same identity (variant, backend, parameters and
 * machine): one seek per row in the index of (variant, parameters, machine, status, id) (named
 * so that no planner can pick a scan of the variant's history instead).
 */
const PREVIOUS_ID = `(SELECT p.id FROM results p INDEXED BY idx_results_machine_identity
  WHERE p.model_id = r.model_id AND p.params_hash = r.params_hash
    AND p.machine_id IS NOT DISTINCT FROM r.machine_id AND p.status = 'ok'
    AND p.id < r.id AND p.backend = r.backend ORDER BY p.id DESC LIMIT 1)`;

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
    `SELECT t.*, p.tokens_per_sec_mean AS prev_tokens_per_sec, p.tokens_per_sec_std AS prev_std,
       COALESCE(p.tokens_per_sec_n, p.runs_ok) AS prev_runs,
       CASE WHEN p.tokens_per_sec_mean > 0 AND t.tokens_per_sec_mean IS NOT NULL
       THEN ROUND(CAST((t.tokens_per_sec_mean - p.tokens_per_sec_mean) * 100.0
         / p.tokens_per_sec_mean AS NUMERIC), 2) END AS speed_delta_pct
     FROM (WITH ${latestOf(db)} SELECT ${RESULT_COLUMNS}, ${PREVIOUS_ID} AS prev_id
       FROM latest r JOIN models m ON m.id = r.model_id
       LEFT JOIN machines mc ON mc.id = r.machine_id) t
     LEFT JOIN results p ON p.id = t.prev_id
     ORDER BY t.tokens_per_sec_mean DESC NULLS LAST, t.model_key`,
  );
  return rows.map(({ prev_std, prev_runs, prev_id: _, params_json, speed_n, ...row }) => {
    row.workload = workloadText(params_json);
    const now = sampleSummary(row.tokens_per_sec_mean, row.tokens_per_sec_std, speed_n);
    const before = sampleSummary(row.prev_tokens_per_sec, prev_std, prev_runs);
    const test = now && before ? welchSummary(now, before) : null;
    return { ...row, speed_delta_significant: test ? (test.p < 0.05 ? 1 : 0) : null };
  });
}

/** The seed's dashboard statistics object plus the KPI counts. */
export interface DashboardStats {
  speed_summary: { min: number; p50: number; avg: number; p95: number; max: number };
  top_models_extended: {
    model_key: string;
    model_name: string;
    quantization: string | null;
    backend: string;
    workload: string | null;
    /** The machine's host name, null for an unknown machine. */
    machine_name: string | null;
    speed: number;
    vram_mb: string;
    architecture: string | null;
  }[];
  quantization_distribution: Record<string, number>;
  architecture_distribution: Record<string, number>;
  efficiency_top: {
    model_key: string;
    model_name: string;
    quantization: string | null;
    tokens_per_sec_per_gb: number;
    speed: number | null;
    vram_mb: string;
  }[];
  cached_models: number;
  total_results: number;
  total_runs: number;
  architecture_count: number;
  quantization_count: number;
}

const round2 = (v: number | null | undefined): number => Math.round((v ?? 0) * 100) / 100;

/** Linear-interpolated percentile of the latest speeds, in SQL. */
function percentileSql(db: StoreDb, p: number): string {
  // The whole part of the position: SQLite's CAST truncates, PostgreSQL's rounds.
  const whole = isPostgres(db) ? "CAST(FLOOR(k.pos) AS BIGINT)" : "CAST(k.pos AS INTEGER)";
  return `WITH ${latestOf(db)}, s AS (
    SELECT tokens_per_sec_mean AS v, ROW_NUMBER() OVER (ORDER BY tokens_per_sec_mean) - 1 AS i
    FROM latest WHERE tokens_per_sec_mean IS NOT NULL),
  k AS (SELECT (COUNT(*) - 1) * ${p} AS pos FROM s)
  SELECT lo.v + (k.pos - ${whole}) * (COALESCE(hi.v, lo.v) - lo.v) AS value
  FROM k JOIN s lo ON lo.i = ${whole} LEFT JOIN s hi ON hi.i = lo.i + 1`;
}

/** How many model variants with a result have each value of a `models` column. */
function distribution(db: StoreDb, column: string): Record<string, number> {
  const rows = all<{ k: string; n: number }>(
    db,
    `WITH ${latestOf(db)} SELECT COALESCE(m.${column}, 'unknown') AS k, COUNT(DISTINCT m.id) AS n
     FROM latest r JOIN models m ON m.id = r.model_id GROUP BY k ORDER BY n DESC, k`,
  );
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}

const vramText = (v: unknown): string => (typeof v === "number" ? String(Math.round(v)) : "N/A");

/** Builds the dashboard statistics object. */
export function dashboardStats(db: StoreDb): DashboardStats {
  const summary = db.prepare(
    `WITH ${latestOf(db)} SELECT MIN(tokens_per_sec_mean) AS min, MAX(tokens_per_sec_mean) AS max,
       AVG(tokens_per_sec_mean) AS avg, COUNT(DISTINCT model_id) AS cached FROM latest`,
  ).get() as { min: number | null; max: number | null; avg: number | null; cached: number };
  const pct = (p: number) =>
    (db.prepare(percentileSql(db, p)).get() as { value: number } | undefined)?.value ?? 0;
  const top = all<Row>(
    db,
    `WITH ${latestOf(db)} SELECT m.model_key, m.model_name, m.quantization, m.architecture,
       r.backend, r.params_json, r.tokens_per_sec_mean AS speed, r.vram_mb, r.tokens_per_sec_per_gb,
       mc.hostname AS machine_name
     FROM latest r JOIN models m ON m.id = r.model_id
       LEFT JOIN machines mc ON mc.id = r.machine_id WHERE r.tokens_per_sec_mean IS NOT NULL
     ORDER BY r.tokens_per_sec_mean DESC, m.model_key LIMIT 10`,
  );
  const efficient = all<Row>(
    db,
    `WITH ${latestOf(db)} SELECT m.model_key, m.model_name, m.quantization,
       r.tokens_per_sec_per_gb, r.tokens_per_sec_mean AS speed, r.vram_mb
     FROM latest r JOIN models m ON m.id = r.model_id WHERE r.tokens_per_sec_per_gb IS NOT NULL
     ORDER BY r.tokens_per_sec_per_gb DESC, m.model_key LIMIT 5`,
  );
  const counts = db.prepare(
    `WITH ${latestOf(db)} SELECT
       (SELECT SUM(ok_results) FROM identity_latest) AS total_results,
       (SELECT runs FROM totals) AS total_runs,
       (SELECT COUNT(DISTINCT m.architecture) FROM latest r JOIN models m ON m.id = r.model_id)
         AS architecture_count,
       (SELECT COUNT(DISTINCT m.quantization) FROM latest r JOIN models m ON m.id = r.model_id)
         AS quantization_count`,
  ).get() as Record<string, number>;
  return {
    speed_summary: {
      min: round2(summary.min),
      p50: round2(pct(0.5)),
      avg: round2(summary.avg),
      p95: round2(pct(0.95)),
      max: round2(summary.max),
    },
    top_models_extended: top.map((r) => ({
      model_key: String(r.model_key),
      model_name: String(r.model_name),
      quantization: r.quantization as string | null,
      backend: String(r.backend),
      workload: workloadText(r.params_json),
      machine_name: (r.machine_name as string | null) ?? null,
      speed: round2(r.speed as number),
      vram_mb: vramText(r.vram_mb),
      architecture: r.architecture as string | null,
    })),
    quantization_distribution: distribution(db, "quantization"),
    architecture_distribution: distribution(db, "architecture"),
    efficiency_top: efficient.map((r) => ({
      model_key: String(r.model_key),
      model_name: String(r.model_name),
      quantization: r.quantization as string | null,
      tokens_per_sec_per_gb: round2(r.tokens_per_sec_per_gb as number),
      speed: r.speed === null ? null : round2(r.speed as number),
      vram_mb: vramText(r.vram_mb),
    })),
    cached_models: summary.cached,
    total_results: counts.total_results ?? 0,
    total_runs: counts.total_runs ?? 0,
    architecture_count: counts.architecture_count ?? 0,
    quantization_count: counts.quantization_count ?? 0,
  };
}

export { comparableModels, comparableVariants, HISTORY_LIMITS, modelHistory } from "./history.ts";
export type {
  ComparableVariant,
  HistoryPoint,
  HistorySeries,
  HistoryStats,
  HistoryWindow,
  ModelHistory,
} from "./history.ts";

/**
 * Deletes a model variant and its history; returns the number of results removed (0: none).
 * A write transaction (transaction.ts): the store's write lock first, as every writer.
 */
export function deleteModel(db: StoreDb, modelKey: string): number | null {
  return transaction(db, () => {
    const found = db.prepare("SELECT id FROM models WHERE model_key = ?").get(modelKey) as
      | { id: number }
      | undefined;
    if (!found) return null;
    const n = db.prepare("SELECT COUNT(*) AS n FROM results WHERE model_id = ?").get(found.id) as {
      n: number;
    };
    db.prepare("DELETE FROM models WHERE id = ?").run(found.id);
    return n.n;
  });
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
