/**
 * The latency percentiles of a load level (request latency, TTFT, TPOT), any percentile: the
 * level's stored column where `load_levels` keeps it (p50, p90, p99), else computed from the
 * level's stored requests (`runs` with its mode and level that succeeded) with lib/stats.ts's
 * quantile, as the stored columns were. Shared by the reports and the dashboard's load levels.
 *
 * @module
 */
import { quantile } from "../stats.ts";
import type { Row } from "./rows.ts";

/** The metrics of a load level with percentiles: `load_levels` prefix and the `runs` column. */
export const LEVEL_PERCENTILE_METRICS = [
  ["latency_ms", "total_ms"],
  ["ttft_ms", "ttft_ms"],
  ["tpot_ms", "tpot_ms"],
] as const;

/** A metric of {@linkcode LEVEL_PERCENTILE_METRICS}. */
export type LevelMetric = (typeof LEVEL_PERCENTILE_METRICS)[number][0];

/**
 * `p50`, `p99.9`: the name of percentile `p` (0–100) in tables and JSON keys.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentileLabel } from "./level_percentiles.ts";
 * assert.equal(percentileLabel(99.9), "p99.9");
 * ```
 */
export function percentileLabel(p: number): string {
  return `p${Number(p.toFixed(3))}`;
}

/** The requests of a load level: the runs stored with its mode and level that succeeded. */
export function levelRuns(runs: readonly Row[], level: Row): Row[] {
  return runs.filter((r) =>
    r.load_mode === level.mode && r.load_level === level.level && (r.status ?? "ok") === "ok"
  );
}

const finite = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) ? v : null;

/** Percentile `p` (0–100) of a load level's metric; null when it has no such value. */
export function levelPercentile(
  level: Row,
  runs: readonly Row[],
  metric: LevelMetric,
  p: number,
): number | null {
  const stored = [50, 90, 99].includes(p) ? finite(level[`${metric}_p${p}`]) : null;
  if (stored !== null) return stored;
  const column = LEVEL_PERCENTILE_METRICS.find(([m]) => m === metric)![1];
  const sorted = levelRuns(runs, level).map((r) => finite(r[column]))
    .filter((v): v is number => v !== null).sort((a, b) => a - b);
  return quantile(sorted, p / 100);
}

/** A load level's percentiles by metric and label: `{ latency_ms: { p50: …, "p99.9": … }, … }`. */
export function levelPercentiles(
  level: Row,
  runs: readonly Row[],
  percentiles: readonly number[],
): Record<LevelMetric, Record<string, number | null>> {
  const out = {} as Record<LevelMetric, Record<string, number | null>>;
  for (const [metric] of LEVEL_PERCENTILE_METRICS) {
    out[metric] = Object.fromEntries(
      percentiles.map((p) => [percentileLabel(p), levelPercentile(level, runs, metric, p)]),
    );
  }
  return out;
}
