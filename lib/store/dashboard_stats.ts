/**
 * The dashboard's statistics object (seed: KPI cards, top-10 chart, quantization donut), built
 * from the results table (results_table.ts): one row per identity with its latest figures, read
 * incrementally from the connection's cache of finished results, so a request after a write
 * costs what the table's does (one small statement, plus the results not seen yet) instead of
 * reading and aggregating every identity's latest result again in SQL (perf/dashboard_api_postgres.ts).
 * The figures are the ones the one SQL statement of schema 12 computed (tests/lib/store/
 * _stats_sql.ts keeps it as the tests' oracle): the speed summary and its linear-interpolated
 * percentiles, the top-10 and efficiency lists (ties by the variant's key), the quantization and
 * architecture distributions (variants with a result), the KPI counts, the runs from `totals`.
 *
 * @module
 */
import type { StoreDb } from "./database.ts";
import { figuresCacheOf, type ResultFiguresCache } from "./result_figures.ts";
import { resultsTable, type ResultsTableRow } from "./results_table.ts";

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
const vramText = (v: unknown): string => (typeof v === "number" ? String(Math.round(v)) : "N/A");
const byText = (a: string, b: string): number => a < b ? -1 : a > b ? 1 : 0;

/** A figure of a row as a number, null when there is none. */
function figure(row: ResultsTableRow, column: string): number | null {
  const v = row[column];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The linear-interpolated percentile `p` (0–1) of ascending `sorted`; null when empty. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * p;
  const whole = Math.floor(pos);
  const lo = sorted[whole]!;
  return lo + (pos - whole) * ((sorted[whole + 1] ?? lo) - lo);
}

/** The first `limit` rows with `column`, largest first, ties by the variant's key. */
function ranked(rows: ResultsTableRow[], column: string, limit: number): ResultsTableRow[] {
  return rows.filter((r) => figure(r, column) !== null)
    .sort((a, b) =>
      figure(b, column)! - figure(a, column)! || byText(a.model_key, b.model_key) ||
      Number(a.result_id) - Number(b.result_id)
    )
    .slice(0, limit);
}

/** How many variants have each value of `column` ('unknown' for none), most first. */
function distribution(rows: ResultsTableRow[], column: string): Record<string, number> {
  const variants = new Map<string, Set<string>>();
  for (const r of rows) {
    const k = (r[column] as string | null) ?? "unknown";
    if (!variants.has(k)) variants.set(k, new Set());
    variants.get(k)!.add(r.model_key);
  }
  return Object.fromEntries(
    [...variants].map(([k, keys]) => [k, keys.size] as const)
      .sort((a, b) => b[1] - a[1] || byText(a[0], b[0])),
  );
}

/** The statistics of `rows` (the results table) with `totalRuns` stored runs. */
export function statsOf(rows: ResultsTableRow[], totalRuns: number): DashboardStats {
  const speeds = rows.map((r) => figure(r, "tokens_per_sec_mean")).filter((v) => v !== null)
    .sort((a, b) => a - b);
  const distinct = (column: string) =>
    new Set(rows.map((r) => r[column]).filter((v) => v !== null && v !== undefined)).size;
  return {
    speed_summary: {
      min: round2(speeds[0]),
      p50: round2(percentile(speeds, 0.5)),
      avg: round2(speeds.length ? speeds.reduce((s, v) => s + v, 0) / speeds.length : null),
      p95: round2(percentile(speeds, 0.95)),
      max: round2(speeds.at(-1)),
    },
    top_models_extended: ranked(rows, "tokens_per_sec_mean", 10).map((r) => ({
      model_key: r.model_key,
      model_name: r.model_name,
      quantization: r.quantization,
      backend: r.backend,
      workload: r.workload,
      machine_name: r.machine_name,
      speed: round2(figure(r, "tokens_per_sec_mean")),
      vram_mb: vramText(r.vram_mb),
      architecture: (r.architecture as string | null) ?? null,
    })),
    quantization_distribution: distribution(rows, "quantization"),
    architecture_distribution: distribution(rows, "architecture"),
    efficiency_top: ranked(rows, "tokens_per_sec_per_gb", 5).map((r) => {
      const speed = figure(r, "tokens_per_sec_mean");
      return {
        model_key: r.model_key,
        model_name: r.model_name,
        quantization: r.quantization,
        tokens_per_sec_per_gb: round2(figure(r, "tokens_per_sec_per_gb")),
        speed: speed === null ? null : round2(speed),
        vram_mb: vramText(r.vram_mb),
      };
    }),
    cached_models: distinct("model_key"),
    total_results: rows.reduce((n, r) => n + Number(r.result_count ?? 0), 0),
    total_runs: totalRuns,
    architecture_count: distinct("architecture"),
    quantization_count: distinct("quantization"),
  };
}

/**
 * Builds the dashboard statistics object; `cache` keeps the results' figures between calls (by
 * default the connection's own, shared with the results table).
 */
export function dashboardStats(
  db: StoreDb,
  cache: ResultFiguresCache = figuresCacheOf(db),
): DashboardStats {
  const totals = db.prepare("SELECT runs FROM totals WHERE id = 1").get();
  return statsOf(resultsTable(db, cache), Number(totals?.runs ?? 0));
}
