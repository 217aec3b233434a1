/**
 * `--percentiles 50,90,95,99,99.9`: the console's latency and load-curve tables with the
 * percentiles asked for, computed from the stored requests (the store keeps p50/p90/p99 columns;
 * any other percentile is read from the runs themselves, so nothing is approximated).
 *
 * @module
 */
import { percentileLabel, type ResultRow, type Row } from "../store/mod.ts";
import { fixed } from "../shared/format.ts";
import { shortModelName } from "../shared/model_name.ts";
import { gapsOf } from "./metrics.ts";
import { quantile } from "../stats.ts";
import { aligned, kneeCell, LOAD_LEAD_HEAD, loadLeadCells, loadTableText } from "./table.ts";

const num = (v: unknown, digits: number) => fixed(v, digits, "-");

export { percentileLabel };

/** The finite numbers of `xs`, sorted. */
function sortedOf(xs: readonly unknown[]): number[] {
  return xs.filter((v): v is number => typeof v === "number" && Number.isFinite(v))
    .sort((a, b) => a - b);
}

/** The values of `percentiles` (0–100) of the samples. */
export function percentilesOf(
  samples: readonly unknown[],
  percentiles: readonly number[],
): (number | null)[] {
  const sorted = sortedOf(samples);
  return percentiles.map((p) => quantile(sorted, p / 100));
}

/** The measured runs of a result: sequential, kept in the statistics (no load, no parallel). */
export function measuredRunsOf(runs: readonly Row[]): Row[] {
  return runs.filter((r) =>
    (r.status ?? "ok") === "ok" && (r.load_mode ?? null) === null && Number(r.parallel ?? 1) <= 1
  );
}

const mean = (xs: number[]) => xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;

/**
 * The latency distributions of results with the chosen percentiles: TTFT, TPOT, ITL and the
 * end-to-end latency (E2EL), each as mean and every percentile (ms), over the measured runs.
 */
export function latencyPercentileTable(
  models: { row: ResultRow; runs: Row[] }[],
  percentiles: readonly number[],
): string {
  const metrics = ["TTFT", "TPOT", "ITL", "E2EL"] as const;
  const head = ["Latency (ms)", "Quant"];
  for (const m of metrics) {
    head.push(
      `${m} mean`,
      ...percentiles.map((p) => `${m} ${percentileLabel(p)}`),
    );
  }
  const body = models.map(({ row, runs }) => {
    const ok = measuredRunsOf(runs);
    const samples: Record<(typeof metrics)[number], unknown[]> = {
      TTFT: ok.map((r) => r.ttft_ms),
      TPOT: ok.map((r) => r.tpot_ms),
      ITL: ok.flatMap((r) => gapsOf(r)),
      E2EL: ok.map((r) => r.total_ms),
    };
    return [
      shortModelName(row.model_name),
      row.quantization ?? "-",
      ...metrics.flatMap((m) => [
        num(mean(sortedOf(samples[m])), 2),
        ...percentilesOf(samples[m], percentiles).map((v) => num(v, 2)),
      ]),
    ];
  });
  return aligned(head, body, 2);
}

/**
 * The load curves with the chosen percentiles of request latency, TTFT and TPOT per level (from
 * the level's requests), beside its throughput, goodput and knee.
 */
export function loadPercentileTable(
  models: { row: ResultRow; levels: Row[]; runs: Row[] }[],
  percentiles: readonly number[],
): string {
  const labels = percentiles.map(percentileLabel);
  const head = [
    ...LOAD_LEAD_HEAD,
    ...labels.map((l) => `latency ${l}`),
    ...labels.map((l) => `TTFT ${l}`),
    ...labels.map((l) => `TPOT ${l}`),
    "knee",
  ];
  const body = models.flatMap(({ row, levels, runs }) =>
    levels.map((l) => {
      const mine = runs.filter((r) =>
        r.load_mode === l.mode && r.load_level === l.level && (r.status ?? "ok") === "ok"
      );
      const col = (key: string, digits: number) =>
        percentilesOf(mine.map((r) => r[key]), percentiles).map((v) => num(v, digits));
      return [
        ...loadLeadCells(row, l),
        ...col("total_ms", 0),
        ...col("ttft_ms", 1),
        ...col("tpot_ms", 2),
        kneeCell(l),
      ];
    })
  );
  return loadTableText(head, body);
}
