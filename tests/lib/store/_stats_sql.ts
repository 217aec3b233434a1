/**
 * An oracle for lib/store/dashboard_stats.ts: the statistics object as one SQL statement over the
 * latest results computed it before it was built from the results table (issue 30.3). Tests
 * compare the two on the same stores.
 *
 * @module
 */
import { isPostgres, type StoreDb } from "../../../lib/store/database.ts";
import { workloadText } from "../../../lib/store/identity.ts";
import { plain, type Row } from "../../../lib/store/rows.ts";

import type { DashboardStats } from "../../../lib/store/dashboard_stats.ts";

/**
 * The latest result of each identity with its variant and machine, the columns the figures use:
 * materialised once (both dialects), `identity_latest` first (SQLite: CROSS JOIN; PostgreSQL:
 * the ids as an array, seeked by primary key — see results_table.ts). Not the parameters (the
 * prompt: kilobytes a row): the listed rows' are read by id.
 */
function latestRows(db: StoreDb): string {
  const from = isPostgres(db)
    ? `results r JOIN identity_latest l ON l.result_id = r.id
       WHERE r.id = ANY(ARRAY(SELECT result_id FROM identity_latest))`
    : "identity_latest l CROSS JOIN results r ON r.id = l.result_id";
  return `latest AS MATERIALIZED (
    SELECT x.*, m.model_key, m.model_name, m.quantization, m.architecture,
      mc.hostname AS machine_name
    FROM (SELECT r.id AS rid, r.model_id, r.machine_id, r.backend, r.vram_mb,
            r.tokens_per_sec_mean AS v, r.tokens_per_sec_per_gb AS g FROM ${from}) x
      JOIN models m ON m.id = x.model_id LEFT JOIN machines mc ON mc.id = x.machine_id)`;
}

/** Linear-interpolated percentile `p` of the latest speeds (the CTE `s`: speed v, rank i). */
function percentile(db: StoreDb, p: number): string {
  const pos = `((SELECT COUNT(*) FROM s) - 1) * ${p}`;
  // The whole part of the position: SQLite's CAST truncates, PostgreSQL's rounds.
  const whole = isPostgres(db) ? `CAST(FLOOR(${pos}) AS BIGINT)` : `CAST(${pos} AS INTEGER)`;
  return `(SELECT lo.v + (${pos} - ${whole}) * (COALESCE(hi.v, lo.v) - lo.v)
    FROM s lo LEFT JOIN s hi ON hi.i = lo.i + 1 WHERE lo.i = ${whole})`;
}

/** One distribution's rows: how many variants with a result have each value of `column`. */
const distribution = (kind: number, column: string) => `
  SELECT ${kind} AS kind, ROW_NUMBER() OVER (
      ORDER BY COUNT(DISTINCT model_id) DESC, COALESCE(${column}, 'unknown')) AS o,
    NULL AS model_key, NULL AS model_name, NULL AS quantization, NULL AS architecture,
    NULL AS backend, NULL AS params_json, NULL AS machine_name, NULL AS speed, NULL AS vram_mb,
    NULL AS per_gb, COALESCE(${column}, 'unknown') AS k, COUNT(DISTINCT model_id) AS n
  FROM latest GROUP BY COALESCE(${column}, 'unknown')`;

/** A ranked list's rows: the first `limit` latest results with `filter`, by `order`. */
const ranked = (kind: number, order: string, filter: string, limit: number) => `
  SELECT kind, o, model_key, model_name, quantization, architecture, backend,
    (SELECT pj.params_json FROM results pj WHERE pj.id = t${kind}.rid) AS params_json,
    machine_name, speed, vram_mb, per_gb, k, n
  FROM (SELECT ${kind} AS kind, ROW_NUMBER() OVER (ORDER BY ${order}) AS o, rid, model_key,
      model_name, quantization, architecture, backend, machine_name, v AS speed,
      vram_mb, g AS per_gb, NULL AS k, CAST(NULL AS INTEGER) AS n
    FROM latest WHERE ${filter}) t${kind} WHERE o <= ${limit}`;

const TOP = 1, EFFICIENT = 2, QUANTIZATIONS = 3, ARCHITECTURES = 4;

/** The statement: the summary columns on every row, one row per list entry (or one, empty). */
function statsSql(db: StoreDb): string {
  return `WITH ${latestRows(db)},
    s AS (SELECT v, ROW_NUMBER() OVER (ORDER BY v) - 1 AS i FROM latest WHERE v IS NOT NULL),
    head AS (SELECT MIN(v) AS min_speed, MAX(v) AS max_speed, AVG(v) AS avg_speed,
        COUNT(DISTINCT model_id) AS cached_models,
        COUNT(DISTINCT architecture) AS architecture_count,
        COUNT(DISTINCT quantization) AS quantization_count,
        (SELECT SUM(ok_results) FROM identity_latest) AS total_results,
        (SELECT runs FROM totals) AS total_runs,
        ${percentile(db, 0.5)} AS p50, ${percentile(db, 0.95)} AS p95
      FROM latest),
    lists AS (
      ${ranked(TOP, "v DESC, model_key", "v IS NOT NULL", 10)}
      UNION ALL ${ranked(EFFICIENT, "g DESC, model_key", "g IS NOT NULL", 5)}
      UNION ALL ${distribution(QUANTIZATIONS, "quantization")}
      UNION ALL ${distribution(ARCHITECTURES, "architecture")})
  SELECT head.*, lists.* FROM head LEFT JOIN lists ON 1 = 1 ORDER BY lists.kind, lists.o`;
}

const round2 = (v: unknown): number => Math.round(((v as number | null) ?? 0) * 100) / 100;
const vramText = (v: unknown): string => (typeof v === "number" ? String(Math.round(v)) : "N/A");

/** The statistics object, computed by one SQL statement. */
export function statsBySql(db: StoreDb): DashboardStats {
  const rows = db.prepare(statsSql(db)).all().map((r) => plain<Row>(r));
  const head = rows[0]!;
  const of = (kind: number) => rows.filter((r) => r.kind === kind);
  const counts = (kind: number) =>
    Object.fromEntries(of(kind).map((r) => [String(r.k), Number(r.n)]));
  return {
    speed_summary: {
      min: round2(head.min_speed),
      p50: round2(head.p50),
      avg: round2(head.avg_speed),
      p95: round2(head.p95),
      max: round2(head.max_speed),
    },
    top_models_extended: of(TOP).map((r) => ({
      model_key: String(r.model_key),
      model_name: String(r.model_name),
      quantization: r.quantization as string | null,
      backend: String(r.backend),
      workload: workloadText(r.params_json),
      machine_name: (r.machine_name as string | null) ?? null,
      speed: round2(r.speed),
      vram_mb: vramText(r.vram_mb),
      architecture: r.architecture as string | null,
    })),
    quantization_distribution: counts(QUANTIZATIONS),
    architecture_distribution: counts(ARCHITECTURES),
    efficiency_top: of(EFFICIENT).map((r) => ({
      model_key: String(r.model_key),
      model_name: String(r.model_name),
      quantization: r.quantization as string | null,
      tokens_per_sec_per_gb: round2(r.per_gb),
      speed: r.speed === null ? null : round2(r.speed),
      vram_mb: vramText(r.vram_mb),
    })),
    cached_models: Number(head.cached_models ?? 0),
    total_results: Number(head.total_results ?? 0),
    total_runs: Number(head.total_runs ?? 0),
    architecture_count: Number(head.architecture_count ?? 0),
    quantization_count: Number(head.quantization_count ?? 0),
  };
}
