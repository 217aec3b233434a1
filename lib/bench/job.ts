/**
 * A benchmark job: discovery, filters, cache check, limits, then the per-model sequence for each
 * target. Emits structured events; the store receives every run as it completes.
 *
 * @module
 */
import type { Config } from "../config/mod.ts";
import { AppError, messageOf, NotFoundError, UsageError } from "../error.ts";
import { atLeast, type Backend, type LmsCli } from "../modelserver/mod.ts";
import type { MachineRecord, ResultsStore, Row } from "../store/mod.ts";
import { identityHashes, measuredParams, paramsHash } from "./cache_key.ts";
import { isAbort, type JobControl } from "./job_control.ts";
import { discoverTargets } from "./discovery.ts";
import type { EventSink } from "./events.ts";
import { applyFilters, type Dropped, smallest } from "./filters.ts";
import { noteSensors, optionWarnings, type SensorState } from "./honesty.ts";
import { randomNonce } from "./measure.ts";
import { runModel } from "./model_run.ts";
import { cellsOf } from "./workload.ts";
import { loadDataset } from "./dataset.ts";
import { type RunOptions, workloadOf } from "./options.ts";
import type { Profiler } from "./profiler_types.ts";
import type { Target } from "./target.ts";
import { shortModelName } from "../shared/model_name.ts";

/** What a job needs. */
export interface JobDeps {
  backend: Backend;
  store: ResultsStore;
  emit: EventSink;
  control: JobControl;
  profiler?: Profiler | null;
  lms?: LmsCli | null;
  nonce?: () => string;
  /** Columns stored with every result (tool and server versions, system information). */
  resultMeta?: Row;
  /**
   * The machine it runs on (lib/bench/machine.ts), recorded in the store and named by every
   * result; a cached result counts only on it. Null: an unknown machine.
   */
  machine?: MachineRecord | null;
}

/** How a job ended. */
export interface JobSummary {
  outcome: "completed" | "failed" | "stopped";
  /** Variants measured, partial ones included. */
  tested: string[];
  /** Variants measured but `partial`: a failed run or request, or no decode speed kept. */
  partial: string[];
  failed: string[];
  skipped: string[];
  error: string | null;
  paramsHash: string;
  /** The results this job wrote (any outcome), in order. */
  resultIds: number[];
}

/** Selects the targets to measure: filters, `--dev-mode`, cache and `--limit`. */
export function selectTargets(
  all: Target[],
  options: RunOptions,
  cached: (t: Target) => boolean,
): { run: Target[]; skipped: Dropped[] } {
  const { kept, dropped } = applyFilters(all, options.filters);
  const skipped = [...dropped];
  let candidates = kept;
  if (options.dev_mode) {
    const one = smallest(kept);
    candidates = one ? [one] : [];
    for (const t of kept) {
      if (t !== one) skipped.push({ key: t.key, reason: "--dev-mode keeps the smallest model" });
    }
  }
  const run: Target[] = [];
  for (const t of candidates) {
    if (!options.retest && cached(t)) {
      skipped.push({ key: t.key, reason: "cached (use --retest to measure again)" });
    } else if (options.limit !== null && run.length >= options.limit) {
      skipped.push({ key: t.key, reason: "--limit" });
    } else run.push(t);
  }
  return { run, skipped };
}

/** How many measured runs a variant gets: the runs asked for, in every workload cell. */
export function measuredRuns(config: Config, options: RunOptions): number {
  return config.num_runs * cellsOf(workloadOf(options)).length;
}

/** Runs a job to its end; never throws for a failing model (it is recorded and the job goes on). */
export async function runJob(
  config: Config,
  options: RunOptions,
  deps: JobDeps,
): Promise<JobSummary> {
  const { backend, store, emit } = deps;
  const w = workloadOf(options);
  // Read once per job: every model gets the same requests, and the key the file's content.
  const dataset = w.dataset !== null
    ? await loadDataset(w.dataset, w.dataset_sample, w.seed)
    : null;
  const params = measuredParams(config, backend.kind, {
    ...options,
    dataset_sha256: dataset?.sha256 ?? null,
  });
  const hash = paramsHash(params);
  const summary: JobSummary = {
    outcome: "completed",
    tested: [],
    partial: [],
    failed: [],
    skipped: [],
    error: null,
    paramsHash: hash,
    resultIds: [],
  };
  try {
    for (const message of optionWarnings(config, options, backend.kind)) {
      emit({ type: "log", level: "warn", message });
    }
    const profiler = deps.profiler ?? null;
    if (profiler) {
      // One sample up front detects the GPU (its name is stored with every result) and finds
      // the sensors this program may not read: each is said once, here and in every result.
      if (profiler.latest() === null) await profiler.sample().catch(() => null);
      for (const message of profiler.unreadable()) emit({ type: "log", level: "warn", message });
    }
    const others: Dropped[] = [];
    const all = await discoverTargets(backend, deps.lms ?? null, (m) =>
      others.push({
        key: m.key,
        reason: "an embedding model, not a language model: nothing to generate",
      }));
    requireMatches(all, options, backend.describe());
    // Cached when every identity it would store (each cell of a grid) has its runs.
    const identities = identityHashes(params);
    const machine = deps.machine ?? null;
    if (machine) store.recordMachine(machine);
    const selected = selectTargets(
      all,
      options,
      (t) =>
        identities.every((h) =>
          store.cacheHit(t.key, h, config.num_runs, machine?.id ?? null) !== null
        ),
    );
    const run = selected.run;
    const skipped = [...selected.skipped, ...others];
    summary.skipped = skipped.map((s) => s.key);
    const loadCurve = workloadOf(options).concurrency.some((c) => c > 1) ||
      workloadOf(options).request_rate.length > 0;
    if (run.length > 0 && backend.kind === "rest" && (options.n_parallel > 1 || loadCurve)) {
      await requireParallel(backend, emit);
    }
    const workload = workloadOf(options);
    if (dataset && dataset.skipped > 0) {
      emit({
        type: "log",
        level: "info",
        message: `${dataset.path}: ${dataset.skipped} conversation(s) without a human turn and ` +
          "a reply are left out",
      });
    }
    const outputs = workload.gen_tokens.length > 0 || dataset !== null;
    if (run.length > 0 && outputs && (await backend.outputControl?.()) !== "exact") {
      emit({
        type: "log",
        level: "warn",
        message: `${backend.describe()} cannot force the output length, so ` +
          `${dataset ? "the dataset's output length" : "--gen-tokens"} is a maximum ` +
          "there: runs that stop earlier are reported with their real length (llama.cpp forces " +
          "it with ignore_eos)",
      });
    }
    emit({
      type: "job_start",
      backend: backend.kind,
      server: backend.describe(),
      models: run.map((t) => t.key),
      runs: measuredRuns(config, options),
      skipped: summary.skipped,
      parallel_rounds: backend.kind !== "sdk" && options.n_parallel > 1 ? config.num_runs : 0,
      load_levels: workload.concurrency.length + workload.request_rate.length,
      profiling: options.enable_profiling,
    });
    for (const s of skipped) {
      emit({ type: "model_skip", key: s.key, reason: s.reason, unknown: s.unknown ?? false });
    }
    const sensors = limitSensors(profiler, options, emit);
    const llamacpp = backend.kind === "openai" && (await backend.outputControl?.()) === "exact";
    for (const [i, target] of run.entries()) {
      if (deps.control.signal.aborted) break;
      const status = await runModel(target, {
        backend,
        store,
        emit,
        control: deps.control,
        profiler,
        nonce: deps.nonce ?? randomNonce,
        config,
        options,
        paramsHash: hash,
        params: params as unknown as Record<string, unknown>,
        resultMeta: {
          ...deps.resultMeta,
          ...(profiler ? { gpu_type: profiler.gpuName() } : {}),
        },
        machine,
        sensors,
        llamacpp,
        onResult: (id) => summary.resultIds.push(id),
        dataset,
      }, { index: i + 1, total: run.length });
      if (status === "stopped") break;
      if (status === "partial") summary.partial.push(target.key);
      (status === "failed" ? summary.failed : summary.tested).push(target.key);
    }
    if (deps.control.signal.aborted) summary.outcome = "stopped";
    else if (summary.tested.length === 0 && summary.failed.length > 0) {
      summary.outcome = "failed";
      summary.error = "every model failed";
    }
  } catch (err) {
    if (!isAbort(err) && !(err instanceof AppError)) throw err;
    summary.outcome = isAbort(err) ? "stopped" : "failed";
    summary.error = isAbort(err) ? null : messageOf(err);
  }
  emit({
    type: "job_end",
    outcome: summary.outcome,
    tested: summary.tested.length,
    partial: summary.partial.length,
    failed: summary.failed.length,
    skipped: summary.skipped.length,
    error: summary.error,
  });
  return summary;
}

/** The filters given, as the command line spells them. */
function filtersText(f: RunOptions["filters"]): string {
  const given: string[] = [];
  if (f.include_models) given.push(`--include-models '${f.include_models}'`);
  if (f.exclude_models) given.push(`--exclude-models '${f.exclude_models}'`);
  if (f.quants.length) given.push(`--quants ${f.quants.join(",")}`);
  if (f.arch.length) given.push(`--arch ${f.arch.join(",")}`);
  if (f.params.length) given.push(`--params ${f.params.join(",")}`);
  if (f.min_context !== null) given.push(`--min-context ${f.min_context}`);
  if (f.max_size !== null) given.push(`--max-size ${f.max_size}`);
  if (f.only_vision) given.push("--only-vision");
  if (f.only_tools) given.push("--only-tools");
  return given.join(" ");
}

/** Fails the job with one sentence when the server has no model, or none passes the filters. */
function requireMatches(all: Target[], options: RunOptions, server: string): void {
  if (all.length === 0) {
    throw new NotFoundError(
      `${server} has no language model: download or add one, then run again`,
      {
        code: "no_models",
      },
    );
  }
  const { kept, dropped } = applyFilters(all, options.filters);
  if (kept.length > 0) return;
  const names = all.map((t) => shortModelName(t.key));
  const shown = names.slice(0, 8).join(", ") + (names.length > 8 ? `, … (${names.length})` : "");
  const unknown = dropped.filter((d) => d.unknown);
  const why = unknown.length
    ? `; for ${unknown.length} of them the filter's field is unknown (${
      unknown[0]!.reason.replace(/, so .*$/, "")
    }): leave that filter out, or use --include-models`
    : "; check the names or loosen the filters";
  throw new NotFoundError(
    `No model of ${server} matches ${filtersText(options.filters) || "the filters"}: it has ` +
      `${shown}${why}`,
    { code: "unknown_model" },
  );
}

/**
 * Which profiling limits can act: the sample the command line took before the job tells whether
 * the GPU sensors exist (without one, the first wait before a run tells; see runModel); a limit
 * that cannot act is said once.
 */
function limitSensors(
  profiler: Profiler | null,
  options: RunOptions,
  emit: EventSink,
): SensorState {
  const state: SensorState = { known: false, temp: false, power: false };
  if (!profiler || (options.max_temp === null && options.max_power === null)) {
    return { known: true, temp: false, power: false };
  }
  const sample = profiler.latest();
  if (sample !== null) noteSensors(state, sample, options, emit);
  return state;
}
async function requireParallel(backend: Backend, emit: EventSink): Promise<void> {
  const version = await backend.version();
  if (version === null) {
    emit({
      type: "log",
      level: "warn",
      message: "The model server does not report its version; --n-parallel needs 0.4.0 or later",
    });
    return;
  }
  if (!atLeast(version, "0.4.0")) {
    throw new UsageError(
      `Cannot run --n-parallel: the model server is version ${version} and parallel inference needs 0.4.0 or later (use --n-parallel 1)`,
      { code: "server_too_old" },
    );
  }
}
