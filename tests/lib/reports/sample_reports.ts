/**
 * Writes sample reports from the fixture store into a folder (default test-artifacts/reports):
 * `deno run -A tests/lib/reports/sample_reports.ts [dir] [--compare]`.
 *
 * @module
 */
import {
  buildReport,
  exportEntries,
  loadPreviousReport,
  writeReports,
} from "../../../lib/reports/mod.ts";
import { print } from "../../../lib/log.ts";
import { FIXTURE_MODELS, fixtureStore, runOptions } from "./fixtures.ts";

/** Writes an earlier and a current report; returns the current report's files. */
export async function writeSamples(dir: string): Promise<Record<string, string>> {
  const options = runOptions({ action: "export-only" });
  const older = fixtureStore(
    FIXTURE_MODELS.map((m) => ({
      ...m,
      speeds: m.speeds.map((s) => s * 0.9),
      ttfts: m.ttfts.map((t) => t * 1.1),
    })),
  );
  const first = await writeReports(
    await buildReport(exportEntries(older, options.filters), {
      source: "export-only",
      options,
      resultsDir: dir,
      now: () => new Date(2026, 2, 1, 9, 0, 0),
    }),
    dir,
  );
  older.close();
  const store = fixtureStore();
  const previous = await loadPreviousReport(first.files.json!);
  const data = await buildReport(exportEntries(store, options.filters), {
    source: "export-only",
    options: { ...options, compare_with: "latest" },
    resultsDir: dir,
    previous,
    now: () => new Date(2026, 2, 2, 9, 0, 0),
  });
  const out = await writeReports(data, dir);
  store.close();
  if (out.errors.length) throw new Error(JSON.stringify(out.errors));
  return out.files as Record<string, string>;
}

if (import.meta.main) {
  const dir = Deno.args[0] ?? "test-artifacts/reports";
  const files = await writeSamples(dir);
  for (const [f, p] of Object.entries(files)) print(`${f}: ${p}`);
}
