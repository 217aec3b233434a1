/**
 * What the reports conclude from the entries: the overall summary, statistics across models,
 * the best variant per quantization and recommendations.
 *
 * @module
 */
import { summarize, type Summary } from "../bench/mod.ts";
import { displayName, num, type ReportEntry, sizeGb } from "./model.ts";
import { isParallel } from "./serving.ts";
import { compareNames } from "./rank.ts";

/** Overall figures of a report. */
export interface ReportSummary {
  /** Results: one per identity (variant × backend × workload × load values). */
  models: number;
  /** Model variants among them. */
  variants: number;
  runs: number;
  failed_runs: number;
  fastest: { name: string; tokens_per_sec: number } | null;
  slowest: { name: string; tokens_per_sec: number } | null;
  average_tokens_per_sec: number | null;
  average_ttft_ms: number | null;
  average_size_gb: number | null;
  vision_models: number;
  tool_models: number;
}

function byColumn(entries: readonly ReportEntry[], column: string): ReportEntry[] {
  return entries.filter((e) => num(e, column) !== null)
    .sort((a, b) => num(b, column)! - num(a, column)!);
}

/** The overall summary of the entries. */
export function reportSummary(entries: readonly ReportEntry[]): ReportSummary {
  const fast = byColumn(entries, "tokens_per_sec_mean");
  const pick = (e: ReportEntry | undefined) =>
    e ? { name: displayName(e), tokens_per_sec: num(e, "tokens_per_sec_mean")! } : null;
  return {
    models: entries.length,
    variants: new Set(entries.map((e) => e.row.model_key)).size,
    runs: entries.reduce((s, e) => s + (num(e, "runs_ok") ?? 0), 0),
    failed_runs: entries.reduce((s, e) => s + (num(e, "runs_failed") ?? 0), 0),
    fastest: pick(fast[0]),
    slowest: pick(fast.at(-1)),
    average_tokens_per_sec: summarize(entries.map((e) => num(e, "tokens_per_sec_mean"))).mean,
    average_ttft_ms: summarize(entries.map((e) => num(e, "ttft_ms_mean"))).mean,
    average_size_gb: summarize(entries.map(sizeGb)).mean,
    vision_models: entries.filter((e) => Boolean(e.row.has_vision)).length,
    tool_models: entries.filter((e) => Boolean(e.row.has_tools)).length,
  };
}

/** Statistics across models of the per-model means (speed, TTFT, memory). */
export function acrossModels(entries: readonly ReportEntry[]): Record<string, Summary> {
  return {
    "Speed (tokens/s)": summarize(entries.map((e) => num(e, "tokens_per_sec_mean"))),
    "Time to first token (ms)": summarize(entries.map((e) => num(e, "ttft_ms_mean"))),
    "GPU memory (MB)": summarize(entries.map((e) => num(e, "vram_mb"))),
  };
}

/** The best variants of one quantization. */
export interface QuantBest {
  quantization: string;
  count: number;
  fastest: ReportEntry | null;
  most_efficient: ReportEntry | null;
  lowest_ttft: ReportEntry | null;
}

/** Best speed, efficiency and time to first token per quantization (sorted by name). */
export function bestPerQuantization(entries: readonly ReportEntry[]): QuantBest[] {
  const groups = new Map<string, ReportEntry[]>();
  for (const e of entries) {
    const q = e.row.quantization ?? "unknown";
    groups.set(q, [...(groups.get(q) ?? []), e]);
  }
  return [...groups.entries()].sort(([a], [b]) => compareNames(a, b)).map(([q, list]) => ({
    quantization: q,
    count: list.length,
    fastest: byColumn(list, "tokens_per_sec_mean")[0] ?? null,
    most_efficient: byColumn(list, "tokens_per_sec_per_gb")[0] ?? null,
    lowest_ttft: byColumn(list, "ttft_ms_mean").at(-1) ?? null,
  }));
}

const fmt = (v: number, digits = 1) => v.toFixed(digits);

/** Recommendations as sentences (fastest, most efficient, lowest latency, balance, memory tiers). */
export function recommendations(entries: readonly ReportEntry[]): string[] {
  const out: string[] = [];
  const fast = byColumn(entries, "tokens_per_sec_mean");
  const eff = byColumn(entries, "tokens_per_sec_per_gb");
  const ttft = byColumn(entries, "ttft_ms_mean");
  if (fast[0]) {
    out.push(
      `Fastest: ${displayName(fast[0])} at ${fmt(num(fast[0], "tokens_per_sec_mean")!)} tokens/s.`,
    );
  }
  if (eff[0]) {
    out.push(
      `Most efficient: ${displayName(eff[0])} at ${
        fmt(num(eff[0], "tokens_per_sec_per_gb")!)
      } tokens/s per GiB.`,
    );
  }
  const low = ttft.at(-1);
  if (low) {
    out.push(
      `Lowest time to first token: ${displayName(low)} at ${fmt(num(low, "ttft_ms_mean")!, 0)} ms.`,
    );
  }
  const maxSpeed = num(fast[0] ?? entries[0]!, "tokens_per_sec_mean") ?? 0;
  const maxEff = eff[0] ? num(eff[0], "tokens_per_sec_per_gb")! : 0;
  if (fast.length > 1 && maxSpeed > 0 && maxEff > 0) {
    const score = (e: ReportEntry) =>
      0.6 * (num(e, "tokens_per_sec_mean") ?? 0) / maxSpeed +
      0.4 * (num(e, "tokens_per_sec_per_gb") ?? 0) / maxEff;
    const best = [...fast].sort((a, b) => score(b) - score(a))[0]!;
    out.push(
      `Best balance (0.6 × speed + 0.4 × efficiency, each relative to the best): ${
        displayName(best)
      }.`,
    );
  }
  for (const [label, limit] of [["under 4 GiB", 4], ["4–8 GiB", 8], ["8–12 GiB", 12]] as const) {
    const low = limit === 4 ? 0 : limit - 4;
    const fits = fast.filter((e) => {
      const s = sizeGb(e);
      return s !== null && s >= low && s < limit;
    });
    if (fits[0]) {
      out.push(
        `Models ${label}: ${displayName(fits[0])} is the fastest (${
          fmt(num(fits[0], "tokens_per_sec_mean")!)
        } tokens/s).`,
      );
    }
  }
  const parallel = byColumn(entries.filter(isParallel), "parallel_tokens_per_sec")[0];
  if (parallel) {
    const total = num(parallel, "parallel_tokens_per_sec")!;
    const one = num(parallel, "e2e_tokens_per_sec_mean");
    out.push(
      `Most throughput with ${num(parallel, "n_parallel")} requests at once: ${
        displayName(parallel)
      } at ${fmt(total)} tokens/s in total${
        one !== null && one > 0 ? ` (${fmt(total / one, 2)}× one stream)` : ""
      }.`,
    );
  }
  if (out.length === 0) out.push("No successful results to recommend from.");
  return out;
}
