/**
 * `--import FILE`: stores another tool's results (lib/bench/import) and says what was added.
 * Loaded on demand: the command line's start loads no part of the benchmark.
 *
 * @module
 */
import type { Paths } from "../config/mod.ts";
import { importFile, type ImportSummary } from "../bench/mod.ts";
import { openStore } from "../store/mod.ts";

/** Stores the results of another tool's file; returns what was added. */
export async function importResults(paths: Paths, file: string): Promise<ImportSummary> {
  const store = await openStore(paths);
  try {
    return await importFile(store, file);
  } finally {
    store.close();
  }
}

/** The line `--import` prints: `Imported 3 llama-bench result(s) from FILE (…)`. */
export function importText(file: string, s: ImportSummary): string {
  return `Imported ${s.added} ${s.tool} result(s) from ${file}` +
    (s.skipped ? ` (${s.skipped} already stored, skipped)` : "");
}
