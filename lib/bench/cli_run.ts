/**
 * The benchmark as the command line runs it: connect, run the job with a progress display, print
 * the results table. Ctrl-C stops cleanly (the in-flight request is aborted and the model unloaded).
 *
 * @module
 */
import type { ResolvedRun } from "./options.ts";
import type { Output } from "../log.ts";
import { outputTarget } from "../config/mod.ts";
import { type MachineRecord, openStore } from "../store/mod.ts";
import { AppError, messageOf, StorageError } from "../error.ts";
import { createBackend } from "../modelserver/mod.ts";
import { VERSION } from "../version.ts";
import { connect, lmsFor } from "./connect.ts";
import { JobController } from "./job_control.ts";
import type { EventSink } from "./events.ts";
import { type JobSummary, runJob } from "./job.ts";
import { captureMachine, machineDeps, type ServerFacts } from "./machine.ts";
import { createProfiler } from "./profiler.ts";
import type { Profiler } from "./profiler_types.ts";
import { createProgress } from "./progress.ts";
import { saveRequests } from "./save_requests.ts";
import { prefixTable } from "./shared_prefix.ts";
import { gridTable, latencyTable, loadTable, parallelTable, resultsTable } from "./table.ts";
import { latencyPercentileTable, loadPercentileTable } from "./table_percentiles.ts";

/** A benchmark run ended as failed (its error was shown as it happened). */
export class BenchmarkFailedError extends AppError {
  constructor(message: string) {
    super(message, "benchmark_failed");
  }
}

/** Hooks of {@linkcode runBenchmarkCommand} (the defaults run on this machine). */
export interface CommandHooks {
  /** Creates the profiler for `--enable-profiling`. @default the hardware profiler of this machine */
  profiler?: (inv: ResolvedRun) => Profiler | null;
  /**
   * Called after the job (reports are written here). Returns lines to print and whether a report
   * could not be written (the exit code is then 1).
   */
  after?: (
    inv: ResolvedRun,
    summary: JobSummary,
  ) => Promise<{ lines: string[]; failed: boolean; json?: string }>;
  /** Extra event consumers (e.g. a log file). */
  sinks?: EventSink[];
  /** Captures the machine the benchmark runs on. @default this machine's (captureMachine) */
  machine?: (inv: ResolvedRun, server: ServerFacts) => Promise<MachineRecord>;
}

/** The profiler of `--enable-profiling` on this machine. */
export function defaultProfiler(inv: ResolvedRun): Profiler {
  return createProfiler({ disable_gtt: inv.options.disable_gtt });
}

/** This machine, a generated id kept in the data folder. */
function thisMachine(inv: ResolvedRun, server: ServerFacts): Promise<MachineRecord> {
  return captureMachine(machineDeps(inv.paths.dataDir), server);
}

/** Runs the benchmark of a resolved invocation; returns the exit code. */
export async function runBenchmarkCommand(
  inv: ResolvedRun,
  output: Output,
  hooks: CommandHooks = {},
): Promise<number> {
  const { config, options } = inv;
  const enc = new TextEncoder();
  const progress = createProgress({
    write: (text) => Deno.stderr.writeSync(enc.encode(text)),
    tty: Deno.stderr.isTerminal(),
  }, { debug: options.debug });
  const lms = lmsFor(config);
  const backend = await connect(config, {
    createBackend,
    lms,
    note: (m) => output.err(m),
  }, {
    requestMs: options.request_timeout ? options.request_timeout * 1000 : null,
    onWait: progress.waiting,
  });
  const store = await openStore(inv.paths);
  const control = new JobController();
  const onSignal = () => {
    output.err("Stopping: aborting the current request and unloading the model…");
    control.stop("interrupted");
  };
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    const serverVersion = await backend.version().catch(() => null);
    const server = { describe: backend.describe(), version: serverVersion };
    const machine = await (hooks.machine ?? thisMachine)(inv, server).catch((err) => {
      output.err(`The machine could not be recorded (${messageOf(err)}): its results name none`);
      return null;
    });
    const profiler = options.enable_profiling ? (hooks.profiler ?? defaultProfiler)(inv) : null;
    const summary = await runJob(config, options, {
      machine,
      backend,
      store,
      control,
      lms,
      profiler,
      emit: (e) => {
        progress(e);
        for (const sink of hooks.sinks ?? []) sink(e);
      },
      resultMeta: {
        app_version: VERSION,
        server_version: serverVersion,
      },
    });
    const rows = store.finishedResults(summary.resultIds);
    // With --json the results document is standard output's only content.
    const say = options.json ? output.err : output.out;
    const chosen = options.percentiles?.length ? options.percentiles : null;
    const withRuns = rows.map((row) => ({ row, runs: chosen ? store.runsOf(row.id) : [] }));
    const latency = chosen ? latencyPercentileTable(withRuns, chosen) : latencyTable(rows);
    if (rows.length > 0) say(`${resultsTable(rows)}\n\n${latency}`);
    const parallel = parallelTable(rows);
    if (parallel !== null) say(`\n${parallel}`);
    const grids = rows.map((row) => ({ row, grid: store.gridOf(row.id) }))
      .filter((g) => g.grid.length > 0);
    if (grids.length > 0) say(`\n${gridTable(grids)}`);
    const prefix = prefixTable(rows);
    if (prefix !== null) say(`\n${prefix}`);
    const curves = withRuns.map((m) => ({ ...m, levels: store.loadLevelsOf(m.row.id) }))
      .filter((c) => c.levels.length > 0);
    if (curves.length > 0) {
      say(`\n${chosen ? loadPercentileTable(curves, chosen) : loadTable(curves)}`);
    }
    const nothing = summary.outcome === "failed" && summary.tested.length === 0;
    const after = nothing ? null : await hooks.after?.(inv, summary);
    for (const line of after?.lines ?? []) say(line);
    if (options.json && after?.json !== undefined) output.out(after.json.trimEnd());
    if (options.save_requests) {
      // Every request the job sent, whatever its outcome (a stopped job's too); after the
      // reports, so a file that cannot be written costs none of them.
      const path = outputTarget(inv.paths, options.save_requests);
      const count = await saveRequests(path, store, summary.resultIds);
      output.err(`Saved ${count} request(s) to ${path}`);
    }
    if (summary.outcome === "stopped") return 130;
    if (summary.outcome === "failed") {
      throw new BenchmarkFailedError(summary.error ?? "The benchmark failed");
    }
    if (after?.failed) {
      throw new StorageError(
        "A report could not be written (see above); the results are stored, so write the " +
          "reports again with --export-only once the cause is fixed",
        { code: "report_failed" },
      );
    }
    return 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    store.close();
    await backend.close();
  }
}
