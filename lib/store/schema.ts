/**
 * The results database schema: versioned migrations (`PRAGMA user_version`; PostgreSQL: pg/schema.ts) for the tables, and
 * the optional metric columns that are added automatically whenever they are missing.
 *
 * Tables: `models` (one row per model variant), `results` (one row per model per benchmark, with
 * the aggregates and the machine it ran on), `runs` (one row per measured run), `machines` (one
 * row per machine). History is kept: a retest adds rows.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { columnsOf, isPostgres, type StoreDb } from "./database.ts";
import { PG_BASELINE_SQL, PG_MACHINES_SQL, pgColumnType } from "./pg/schema.ts";
import { PG_LINE_SUMS_SQL } from "./pg/line_sums.ts";
import { PG_PREVIOUS_SQL } from "./pg/previous.ts";
import { clampIntervals, mergeVariantIdentities } from "./data_migrations.ts";
import { rebuildTable } from "./rebuild.ts";
import { FINISHED } from "./status.ts";
import {
  IDENTITY_LATEST_SQL,
  MACHINE_IDENTITY_SQL,
  MACHINE_IDENTITY_TRIGGERS_SQL,
  MODEL_LATEST_REFRESH_SQL,
  MODEL_LATEST_TABLES_SQL,
  MODEL_LATEST_TRIGGERS,
  MODEL_LATEST_TRIGGERS_SQL,
  PREVIOUS_COLUMN_SQL,
  PREVIOUS_TRIGGERS_SQL,
} from "./latest.ts";
import { MACHINES_SQL } from "./machines.ts";
import { PG_RESULT_EDITS_SQL, RESULT_EDITS_SQL } from "./result_edits.ts";
import { splitGridResults } from "./split.ts";
import { LINE_SUMS_SQL } from "./line_sums.ts";
import {
  AGGREGATED_METRICS,
  LATENCY_METRICS,
  LATENCY_PERCENTILES,
  STAT_SUFFIXES,
} from "./metric_columns.ts";

export { AGGREGATED_METRICS, LATENCY_METRICS, LATENCY_PERCENTILES, STAT_SUFFIXES };

/** One forward migration. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
  /** Changes to the stored data, run after `sql` in the same transaction (SQLite). */
  apply?: (db: DatabaseSync) => void;
  /**
   * The PostgreSQL text: required from version 9 on (pg/schema.ts `PG_BASELINE`, where a
   * PostgreSQL store starts; the versions before it are skipped there).
   */
  pg?: string;
  /** Changes to the stored data on PostgreSQL, run after `pg`. */
  pgApply?: (db: StoreDb) => void;
  /** Runs with foreign keys off (a table rebuild: see rebuild.ts). */
  foreignKeysOff?: boolean;
}

export { FINISHED } from "./status.ts";

/** Forward migrations, applied in order to a database whose `user_version` is lower. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "models, results and runs tables",
    sql: `
      CREATE TABLE models (
        id INTEGER PRIMARY KEY,
        model_key TEXT NOT NULL UNIQUE,
        model_name TEXT NOT NULL,
        quantization TEXT,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL
      );
      CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
        params_hash TEXT NOT NULL,
        backend TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'stopped')),
        started_at TEXT NOT NULL,
        finished_at TEXT,
        params_json TEXT NOT NULL DEFAULT '{}'
      );
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        run_index INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (result_id, run_index)
      );
      CREATE INDEX idx_results_model_hash ON results (model_id, params_hash, status, id);
      CREATE INDEX idx_runs_result ON runs (result_id);
    `,
  },
  {
    version: 2,
    description: "latest_results view: the newest finished result per model variant and parameters",
    sql: `
      CREATE VIEW latest_results AS
        SELECT r.* FROM results r
        WHERE r.status = 'ok' AND r.id = (
          SELECT MAX(r2.id) FROM results r2
          WHERE r2.model_id = r.model_id AND r2.params_hash = r.params_hash AND r2.status = 'ok'
        );
      CREATE INDEX idx_results_finished ON results (finished_at);
    `,
  },
  {
    version: 3,
    description: "covering index for the newest finished result per model (dashboard queries)",
    sql: `CREATE INDEX idx_results_status_model ON results (status, model_id, id);`,
  },
  {
    version: 4,
    description:
      "model_latest and totals tables, kept current by triggers in the writing transaction",
    sql: MODEL_LATEST_TABLES_SQL,
  },
  {
    version: 5,
    description:
      "grid_cells (controlled workloads: pp/tg per prompt and output length) and load_levels " +
      "(load curves: one row per concurrency level or request rate)",
    sql: `
      CREATE TABLE grid_cells (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        prompt_tokens INTEGER,
        gen_tokens INTEGER,
        runs INTEGER NOT NULL,
        prompt_tokens_mean REAL,
        gen_tokens_mean REAL,
        prompt_exact INTEGER NOT NULL DEFAULT 0,
        gen_exact INTEGER NOT NULL DEFAULT 0,
        pp_tps_mean REAL,
        pp_tps_std REAL,
        tg_tps_mean REAL,
        tg_tps_std REAL,
        ttft_ms_mean REAL,
        ttft_ms_p99 REAL,
        tpot_ms_mean REAL,
        tpot_ms_p99 REAL,
        server_pp_tps_mean REAL,
        server_tg_tps_mean REAL
      );
      CREATE INDEX idx_grid_cells_result ON grid_cells (result_id);
      CREATE TABLE load_levels (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        mode TEXT NOT NULL CHECK (mode IN ('concurrency', 'rate')),
        level REAL NOT NULL,
        requests INTEGER NOT NULL,
        ok INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        duration_ms REAL NOT NULL,
        output_tokens_per_sec REAL,
        requests_per_sec REAL,
        goodput_rps REAL,
        slo_met INTEGER,
        latency_ms_p50 REAL,
        latency_ms_p90 REAL,
        latency_ms_p99 REAL,
        ttft_ms_p50 REAL,
        ttft_ms_p90 REAL,
        ttft_ms_p99 REAL,
        tpot_ms_p50 REAL,
        tpot_ms_p90 REAL,
        tpot_ms_p99 REAL,
        itl_ms_p50 REAL,
        itl_ms_p99 REAL,
        knee INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX idx_load_levels_result ON load_levels (result_id);
    `,
  },
  {
    version: 6,
    description: "one identity per model variant (publisher/model@quant): duplicates merged",
    sql: "",
    apply: (db) => void mergeVariantIdentities(db),
  },
  {
    version: 7,
    description: "interval lower ends within the metrics' domain (no negative times or speeds)",
    sql: "",
    apply: (db) => void clampIntervals(db, [...AGGREGATED_METRICS]),
  },
  {
    version: 8,
    description: "status 'partial': a finished result some of whose runs failed",
    sql: "",
    foreignKeysOff: true,
    apply: (db) => {
      rebuildTable(db, "results", (sql) => {
        const check = /CHECK \(status IN \('running', 'ok', 'failed', 'stopped'\)\)/;
        if (!check.test(sql)) throw new Error("results.status has an unknown CHECK constraint");
        return sql.replace(
          check,
          "CHECK (status IN ('running', 'ok', 'partial', 'failed', 'stopped'))",
        );
      });
      // The rebuilt triggers and view still say 'ok' alone: made again, counting 'partial' too.
      for (const t of MODEL_LATEST_TRIGGERS.filter((n) => n.startsWith("results_"))) {
        db.exec(`DROP TRIGGER ${t}`);
      }
      db.exec(MODEL_LATEST_TRIGGERS_SQL);
      db.exec(`
        DROP VIEW latest_results;
        CREATE VIEW latest_results AS
          SELECT r.* FROM results r
          WHERE r.status IN ${FINISHED} AND r.id = (
            SELECT MAX(r2.id) FROM results r2
            WHERE r2.model_id = r.model_id AND r2.params_hash = r.params_hash
              AND r2.status IN ${FINISHED}
          );`);
      // Finished results with a failed run were stored 'ok' before: they are partial.
      const columns = db.prepare("PRAGMA table_info(results)").all() as { name: string }[];
      if (columns.some((c) => c.name === "runs_failed")) {
        db.exec("UPDATE results SET status = 'partial' WHERE status = 'ok' AND runs_failed > 0");
      }
      db.exec(MODEL_LATEST_REFRESH_SQL);
    },
  },
  {
    version: 9,
    description: "one row per identity: identity_latest (variant × parameters) replaces " +
      "model_latest (variant), and each stored grid result is split into one result per cell",
    sql: IDENTITY_LATEST_SQL,
    apply: (db) => void splitGridResults(db),
    pg: PG_BASELINE_SQL,
  },
  {
    version: 10,
    description: "machines (one row per machine id, its newest description, first and last " +
      "seen) and results.machine_id (null before: an unknown machine); the machine is part of " +
      "a result's identity (identity_latest keyed by variant, parameters and machine)",
    // Portable SQL: the same statements create the table, column, index and keyed
    // identity_latest in PostgreSQL.
    sql: `${MACHINES_SQL}${MACHINE_IDENTITY_SQL}`,
    // SQLite-specific (the one part a PostgreSQL twin writes its own way): the triggers that
    // keep identity_latest current.
    apply: (db) => db.exec(MACHINE_IDENTITY_TRIGGERS_SQL),
    pg: PG_MACHINES_SQL,
  },
  {
    version: 11,
    description: "line_sums: the sums of every line of the history (the comparison's figures), " +
      "kept current by triggers in the writing transaction",
    sql: "",
    apply: (db) => {
      addResultColumns(db, LINE_COLUMNS);
      db.exec(LINE_SUMS_SQL);
    },
    // PostgreSQL: the same table and fill, PL/pgSQL for SQLite's triggers (pg/line_sums.ts); in
    // pgApply, after the columns.
    pg: "",
    pgApply: (db) => {
      addResultColumns(db, LINE_COLUMNS);
      db.exec(PG_LINE_SUMS_SQL);
    },
  },
  {
    version: 12,
    description: "identity_latest.prev_id: the ok result before each identity's newest one (the " +
      "results table's Δ), kept by the identity triggers",
    // Portable: the column and its values; SQLite's triggers made again in apply.
    sql: PREVIOUS_COLUMN_SQL,
    apply: (db) => db.exec(PREVIOUS_TRIGGERS_SQL),
    pg: PG_PREVIOUS_SQL,
  },
  {
    version: 13,
    description: "result_edits: a count of finished results edited in place and of results " +
      "deleted, kept by triggers (the results table caches finished results' figures by id)",
    sql: RESULT_EDITS_SQL,
    pg: PG_RESULT_EDITS_SQL,
  },
];

/** The optional columns of `results` line_sums' fill and triggers read (schema 11). */
const LINE_COLUMNS = ["tokens_per_sec_mean", "n_parallel", "parallel_tokens_per_sec"];

/**
 * Adds the optional `results` columns among `names` a young store lacks yet (ensureColumns adds
 * the rest after the migrations), in the store's dialect.
 */
function addResultColumns(db: StoreDb, names: readonly string[]): void {
  const have = new Set(columnsOf(db, "results"));
  for (const c of names.filter((c) => !have.has(c))) {
    const type = OPTIONAL_COLUMNS.results![c]!;
    db.exec(`ALTER TABLE results ADD COLUMN ${c} ${isPostgres(db) ? pgColumnType(type) : type}`);
  }
}

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

const HARDWARE = ["temp_c", "power_w", "gpu_vram_gb", "gtt_gb", "cpu_percent", "ram_gb"];

/** Columns that may be missing in an older database; added with `ALTER TABLE ... ADD COLUMN`. */
export const OPTIONAL_COLUMNS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  models: {
    architecture: "TEXT",
    params_size: "TEXT",
    size_bytes: "INTEGER",
    max_context_length: "INTEGER",
    format: "TEXT",
    has_vision: "INTEGER NOT NULL DEFAULT 0",
    has_tools: "INTEGER NOT NULL DEFAULT 0",
  },
  results: {
    error: "TEXT",
    owner: "TEXT",
    prompt: "TEXT",
    context_length: "INTEGER",
    num_runs: "INTEGER",
    runs_ok: "INTEGER",
    runs_failed: "INTEGER",
    tokens_in: "REAL",
    tokens_out: "REAL",
    vram_mb: "REAL",
    tokens_per_sec_per_gb: "REAL",
    tokens_per_sec_per_billion_params: "REAL",
    load_time_ms: "REAL",
    warmup_ms: "REAL",
    n_parallel: "INTEGER",
    parallel_tokens_per_sec: "REAL",
    parallel_latency_ms_mean: "REAL",
    parallel_latency_ms_p95: "REAL",
    throttle_wait_s: "REAL",
    warnings_json: "TEXT",
    applied_json: "TEXT",
    workload_json: "TEXT",
    runs_excluded: "INTEGER",
    /** Runs whose decode speed is in the mean (the n of Welch's test; older results: runs_ok). */
    tokens_per_sec_n: "INTEGER",
    gpu_type: "TEXT",
    server_version: "TEXT",
    app_version: "TEXT",
    system_json: "TEXT",
    /** A result imported from another tool's output: the content hash of its record. */
    import_hash: "TEXT",
    ...Object.fromEntries(
      AGGREGATED_METRICS.flatMap((m) => STAT_SUFFIXES.map((s) => [`${m}_${s}`, "REAL"])),
    ),
    ...Object.fromEntries(
      LATENCY_METRICS.flatMap((m) => LATENCY_PERCENTILES.map(([s]) => [`${m}_${s}`, "REAL"])),
    ),
    ...Object.fromEntries(
      HARDWARE.flatMap((h) => ["min", "max", "mean"].map((s) => [`${h}_${s}`, "REAL"])),
    ),
  },
  grid_cells: {
    /** Context tokens filled before the cell's prompt (`--kv-depth`); null: none. */
    kv_depth: "INTEGER",
  },
  load_levels: {
    /** The most requests in flight at once (a concurrency never reached shows here). */
    max_in_flight: "INTEGER",
    /** Rate levels: requests sent per second, and answers completed per second (the knee's). */
    offered_rps: "REAL",
    completed_rps: "REAL",
  },
  runs: {
    status: "TEXT NOT NULL DEFAULT 'ok'",
    error: "TEXT",
    retried: "INTEGER NOT NULL DEFAULT 0",
    parallel: "INTEGER NOT NULL DEFAULT 1",
    tokens_in: "INTEGER",
    tokens_out: "INTEGER",
    ttft_ms: "REAL",
    total_ms: "REAL",
    tokens_per_sec: "REAL",
    e2e_tokens_per_sec: "REAL",
    prefill_tokens_per_sec: "REAL",
    server_ttft_ms: "REAL",
    server_total_ms: "REAL",
    server_tokens_per_sec: "REAL",
    server_prompt_ms: "REAL",
    server_predicted_ms: "REAL",
    stop_reason: "TEXT",
    vram_mb: "REAL",
    tpot_ms: "REAL",
    itl_json: "TEXT",
    prompt_tokens_target: "INTEGER",
    gen_tokens_target: "INTEGER",
    prompt_exact: "INTEGER",
    load_mode: "TEXT",
    load_level: "REAL",
    started_at_ms: "REAL",
    ended_at_ms: "REAL",
    client_tokens_per_sec: "REAL",
    decode_source: "TEXT",
    /** A run with an output target that ended before it on its own (1), or reached it (0). */
    stopped_early: "INTEGER",
    /** Context tokens filled before the run's prompt (`--kv-depth`); null: none. */
    kv_depth: "INTEGER",
    /** With `--shared-prefix-tokens`: 1 for the request that found the prefix cold, else 0. */
    prefix_cold: "INTEGER",
    /** Prompt tokens the server took from its prompt cache (llama.cpp `cache_n`), where said. */
    server_cached_tokens: "INTEGER",
  },
};
