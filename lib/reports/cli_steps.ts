/**
 * The report steps of the command line: the hook that writes reports after a benchmark, and
 * `--export-only`, which writes them from the results store without benchmarking.
 *
 * @module
 */
import type { Output } from "../log.ts";
import { openStore } from "../store/mod.ts";
import type { JobSummary, ResolvedRun } from "../bench/mod.ts";
import { NotFoundError } from "../error.ts";
import { benchmarkEntries, buildReport, exportEntries } from "./build.ts";
import { loadPreviousReport, type PreviousReport, resolveCompareFile } from "./compare.ts";
import type { ReportEntry } from "./model.ts";
import { outcomeLines, type WriteOptions, writeReports } from "./write.ts";
import { renderJson } from "./json.ts";

/** Options of the report commands (tests inject a clock and exporters). */
export interface ReportCommandOptions extends WriteOptions {
  /** @default () => new Date() */
  now?: () => Date;
}

/**
 * Resolves and loads the `--compare-with` report (before anything new is written); null without
 * the option, or for `latest` when there is no earlier report (`notes` says so).
 */
export async function loadComparison(
  inv: ResolvedRun,
  notes: string[] = [],
): Promise<PreviousReport | null> {
  const ref = inv.options.compare_with;
  if (ref === null) return null;
  const file = await resolveCompareFile(inv.paths.resultsDir, ref);
  if (file === null) {
    notes.push(`No earlier report to compare with in ${inv.paths.resultsDir}`);
    return null;
  }
  return await loadPreviousReport(file);
}

async function write(
  inv: ResolvedRun,
  entries: ReportEntry[],
  previous: PreviousReport | null,
  source: "benchmark" | "export-only",
  options: ReportCommandOptions,
): Promise<AfterOutcome> {
  const data = await buildReport(entries, {
    source,
    options: inv.options,
    resultsDir: inv.paths.resultsDir,
    previous,
    now: options.now,
  });
  const outcome = await writeReports(data, inv.paths.resultsDir, options);
  const lines = outcomeLines(outcome);
  if (previous) {
    const matched = entries.filter((e) => e.comparison !== null).length;
    lines.push(
      `Compared with ${previous.source.file}: ${matched} of ${entries.length} result(s) had a ` +
        "comparable one (same variant, backend and parameters)",
    );
    for (const e of entries.filter((e) => e.comparison === null)) {
      lines.push(`  nothing comparable for ${e.row.model_key}: ${e.comparison_note}`);
    }
  }
  return {
    lines,
    failed: outcome.errors.length > 0,
    ...(inv.options.json ? { json: renderJson(data) } : {}),
  };
}

/** What the after-benchmark step printed, and whether a report could not be written. */
export interface AfterOutcome {
  lines: string[];
  failed: boolean;
  /** The results document, with `--json`. */
  json?: string;
}

/**
 * Prepares the after-benchmark reports: checks and loads `--compare-with` now (a bad value fails
 * before measuring) and returns the hook for `runBenchmarkCommand`.
 */
export async function prepareReports(
  inv: ResolvedRun,
  options: ReportCommandOptions = {},
): Promise<{ after: (inv: ResolvedRun, summary: JobSummary) => Promise<AfterOutcome> }> {
  const notes: string[] = [];
  const previous = await loadComparison(inv, notes);
  return {
    after: async (inv, summary) => {
      if (summary.tested.length === 0) {
        const empty = inv.options.json
          ? {
            json: renderJson(
              await buildReport([], {
                source: "benchmark",
                options: inv.options,
                resultsDir: inv.paths.resultsDir,
                now: options.now,
              }),
            ),
          }
          : {};
        return {
          lines: [
            ...notes,
            "No new results, so no report was written (--export-only reports the stored results)",
          ],
          failed: false,
          ...empty,
        };
      }
      const store = await openStore(inv.paths);
      try {
        const entries = benchmarkEntries(store, summary.resultIds);
        const written = await write(inv, entries, previous, "benchmark", options);
        return { ...written, lines: [...notes, ...written.lines] };
      } finally {
        store.close();
      }
    },
  };
}

/** `--export-only`: writes the reports of the stored results that pass the filters. */
export async function runExportOnly(
  inv: ResolvedRun,
  output: Output,
  options: ReportCommandOptions = {},
): Promise<number> {
  const notes: string[] = [];
  const previous = await loadComparison(inv, notes);
  const store = await openStore(inv.paths);
  try {
    const entries = exportEntries(store, inv.options.filters);
    if (entries.length === 0) {
      throw new NotFoundError("Cannot export: no stored results match the filters");
    }
    for (const n of notes) output.err(n);
    const { lines, failed, json } = await write(inv, entries, previous, "export-only", options);
    for (const line of lines) (json === undefined ? output.out : output.err)(line);
    if (json !== undefined) output.out(json.trimEnd());
    return failed ? 1 : 0;
  } finally {
    store.close();
  }
}
