/**
 * `--list-models`: what a benchmark with these options would measure, after the filters,
 * `--dev-mode`, the cache and `--limit`, with the reason for every model it would skip; then exit.
 * With `--json` the same as one JSON document on standard output.
 *
 * @module
 */
import type { ResolvedRun } from "./options.ts";
import { localMachineId } from "./machine.ts";
import { type Output } from "../log.ts";
import { openStore } from "../store/mod.ts";
import { createBackend } from "../modelserver/mod.ts";
import { shortModelName } from "../shared/model_name.ts";
import { measuredParams, paramsHash } from "./cache_key.ts";
import { connect, lmsFor } from "./connect.ts";
import { discoverTargets } from "./discovery.ts";
import { measuredRuns, selectTargets } from "./job.ts";
import { sizeGiB, type Target } from "./target.ts";

/** One model of the listing. */
export interface ListedModel {
  key: string;
  name: string;
  quantization: string | null;
  architecture: string | null;
  params: string | null;
  size_bytes: number | null;
  max_context_length: number | null;
  action: "benchmark" | "skip";
  /** Why it is skipped (null when it would be benchmarked). */
  reason: string | null;
  /** The filter's field is unknown for this model (the server does not tell it before a load). */
  unknown_field: boolean;
}

/** The listing of what would be benchmarked. */
export function listing(
  all: Target[],
  run: Target[],
  skipped: { key: string; reason: string; unknown?: boolean }[],
): ListedModel[] {
  const go = new Set(run.map((t) => t.key));
  const why = new Map(skipped.map((s) => [s.key, s]));
  return all.map((t) => ({
    key: t.key,
    name: shortModelName(t.key),
    quantization: t.quantization,
    architecture: t.architecture,
    params: t.params_string,
    size_bytes: t.size_bytes,
    max_context_length: t.max_context_length,
    action: go.has(t.key) ? "benchmark" : "skip",
    reason: go.has(t.key) ? null : why.get(t.key)?.reason ?? "not selected",
    unknown_field: why.get(t.key)?.unknown ?? false,
  }));
}

/** The listing as aligned text lines, the models to benchmark first. */
export function listingText(server: string, models: ListedModel[]): string {
  const go = models.filter((m) => m.action === "benchmark");
  const skip = models.filter((m) => m.action === "skip");
  const row = (m: ListedModel) => [
    m.name,
    m.quantization ?? "?",
    m.architecture ?? "?",
    m.params ?? "?",
    m.size_bytes === null
      ? "?"
      : `${sizeGiB({ size_bytes: m.size_bytes } as Target)!.toFixed(2)} GiB`,
    m.max_context_length === null ? "?" : String(m.max_context_length),
  ];
  const rows = [["Model", "Quant", "Arch", "Params", "Size", "Context"], ...models.map(row)];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  const lines = [
    `${server}: ${go.length} model(s) to benchmark, ${skip.length} skipped (? = not reported by the server)`,
    `  ${fmt(rows[0]!)}`,
  ];
  for (const m of go) lines.push(`  ${fmt(row(m))}`);
  for (const m of skip) lines.push(`  ${fmt(row(m))}\n      skip: ${m.reason}`);
  return lines.join("\n");
}

/** Runs `--list-models`; returns the exit code. */
export async function runListModels(inv: ResolvedRun, output: Output): Promise<number> {
  const { config, options } = inv;
  const lms = lmsFor(config);
  const backend = await connect(config, { createBackend, lms, note: (m) => output.err(m) }, {
    requestMs: options.request_timeout ? options.request_timeout * 1000 : null,
  });
  try {
    const store = await openStore(inv.paths);
    try {
      const all = await discoverTargets(backend, lms);
      const hash = paramsHash(measuredParams(config, backend.kind, options));
      const runs = measuredRuns(config, options);
      const machine = await localMachineId(inv.paths.dataDir);
      const { run, skipped } = selectTargets(
        all,
        options,
        (t) => store.cacheHit(t.key, hash, runs, machine) !== null,
      );
      const models = listing(all, run, skipped);
      if (options.json) {
        output.out(
          JSON.stringify({ server: backend.describe(), params_hash: hash, models }, null, 2),
        );
      } else output.out(listingText(backend.describe(), models));
      return 0;
    } finally {
      store.close();
    }
  } finally {
    await backend.close();
  }
}
