/**
 * What `--list-cache` prints and `--export-cache` writes.
 *
 * @module
 */
import type { Row } from "./rows.ts";
import type { ResultsStore } from "./store.ts";
import { fixed } from "../shared/format.ts";
import { shortModelName } from "../shared/model_name.ts";
import { workloadText } from "./identity.ts";
import { UNKNOWN_MACHINE } from "../shared/machine.ts";

/** The machine of a cached result: its host name, or "unknown machine". */
function machineOf(r: Row): string {
  return typeof r.machine_name === "string" ? r.machine_name : UNKNOWN_MACHINE;
}

/** A text table of the newest result of every identity, or a sentence when empty. */
export function cacheListing(store: ResultsStore): string {
  const rows = store.latestPerIdentity();
  if (rows.length === 0) return "The cache is empty: no benchmark results are stored yet.";
  const table = [[
    "Model",
    "Quant",
    "Backend",
    "Machine",
    "Workload",
    "tok/s",
    "TTFT ms",
    "Runs",
    "Finished",
    "Params",
  ]];
  for (const r of rows) {
    table.push([
      shortModelName(r.model_name),
      r.quantization ?? "-",
      r.backend,
      machineOf(r),
      workloadText(r.params_json) ?? "configured prompt",
      fixed(r.tokens_per_sec_mean, 2, "-"),
      fixed(r.ttft_ms_mean, 1, "-"),
      String(r.runs_ok ?? r.num_runs ?? "-"),
      String(r.finished_at ?? "-").replace("T", " ").slice(0, 19),
      r.params_hash,
    ]);
  }
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) =>
    row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()
  );
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("  "));
  return `${
    lines.join("\n")
  }\n${rows.length} cached result(s): the newest of each model variant, parameters and machine`;
}

/** The fields of a cached result that `--list-cache --json` prints. */
const LISTED = [
  "id",
  "model_key",
  "model_name",
  "quantization",
  "backend",
  "status",
  "tokens_per_sec_mean",
  "ttft_ms_mean",
  "runs_ok",
  "num_runs",
  "finished_at",
  "params_hash",
  "machine_id",
  "machine_name",
  "workload",
] as const;

/** The cache as `--list-cache --json` prints it: `{count, results: [...]}`, newest per identity. */
export function cacheListingJson(store: ResultsStore): { count: number; results: Row[] } {
  const results = store.latestPerIdentity().map((r) => {
    const row: Row = { ...r, workload: workloadText(r.params_json), machine_name: machineOf(r) };
    return Object.fromEntries(LISTED.map((k) => [k, row[k] ?? null]));
  });
  return { count: results.length, results };
}

/** Every stored result with its runs, as a JSON-ready object. */
export function exportCache(
  store: ResultsStore,
  meta: Record<string, unknown> = {},
): Record<string, unknown> {
  const results = store.allResults().map((r) => ({
    ...r,
    params: JSON.parse(String(r.params_json ?? "{}")),
    runs: store.runsOf(r.id),
  }));
  return { ...meta, exported_at: new Date().toISOString(), count: results.length, results };
}
