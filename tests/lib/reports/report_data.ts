/**
 * Report data of the fixture store for the format tests.
 *
 * @module
 */
import type { RunOptions } from "../../../lib/bench/options.ts";
import {
  buildReport,
  exportEntries,
  type PreviousReport,
  type ReportData,
} from "../../../lib/reports/mod.ts";
import { FIXTURE_MODELS, type FixtureModel, fixtureStore, runOptions } from "./fixtures.ts";

/** Builds the report data of a fixture (the store is closed afterwards). */
export async function fixtureReport(
  options: Partial<RunOptions> = {},
  extra: { models?: FixtureModel[]; previous?: PreviousReport | null; resultsDir?: string } = {},
): Promise<ReportData> {
  const store = fixtureStore(extra.models ?? FIXTURE_MODELS);
  try {
    const opts = runOptions({ action: "export-only", ...options });
    return await buildReport(exportEntries(store, opts.filters), {
      source: "export-only",
      options: opts,
      resultsDir: extra.resultsDir ?? "/nonexistent",
      previous: extra.previous ?? null,
      now: () => new Date(2026, 2, 2, 9, 30, 0),
    });
  } finally {
    store.close();
  }
}
