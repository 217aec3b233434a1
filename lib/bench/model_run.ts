/**
 * The per-model sequence: load, one warmup, N measured runs (then the parallel rounds), unload.
 * Every run is stored as it completes; a failing model is recorded with its error and the job goes
 * on with the next one.
 *
 * @module
 */
import type { Config } from "../config/mod.ts";
import type { RunOptions } from "../cli/options.ts";
import { AppError, messageOf } from "../error.ts";
import { isConnectionRefused } from "../modelserver/errors.ts";
import type { Backend, LoadOptions } from "../modelserver/backend.ts";
import type { ResultsStore, Row } from "../store/mod.ts";
import { isAbort, type JobControl } from "./control.ts";
import type { EventSink, ModelFigures } from "./events.ts";
import { type MeasureContext, measureOnce } from "./measure.ts";
import { aggregateRuns, type RunMetrics, runMetrics } from "./metrics.ts";
import { aggregateParallel, type ParallelRound, parallelRound } from "./parallel.ts";
import type { Profiler } from "./profiler_types.ts";
import { modelRecordOf, paramsBillions, refreshTarget, sizeGiB, type Target } from "./target.ts";
import { waitForLimits } from "./limits.ts";

/** What the sequence needs from the job. */
export interface ModelRunContext {
  backend: Backend;
  store: ResultsStore;
  emit: EventSink;
  control: JobControl;
  profiler: Profiler | null;
  nonce: () => string;
  config: Config;
  options: RunOptions;
  paramsHash: string;
  params: Record<string, unknown>;
  /** Extra columns stored with the result (versions, system information). */
  resultMeta: Row;
}

/** The load options of a configuration. */
export function loadOptionsOf(config: Config, options: RunOptions, parallel: boolean): LoadOptions {
  return {
    context_length: config.context_length,
    ...config.load,
    ...(parallel
      ? { n_parallel: options.n_parallel, unified_kv_cache: options.unified_kv_cache }
      : {}),
  };
}

/** Runs one model; returns how it ended. */
export async function runModel(
  discovered: Target,
  ctx: ModelRunContext,
  position: { index: number; total: number },
): Promise<"ok" | "failed" | "stopped"> {
  const { backend, store, emit, control, config, options } = ctx;
  let target = discovered;
  const key = target.key;
  const parallel = backend.kind !== "sdk" && options.n_parallel > 1;
  const load = { ...loadOptionsOf(config, options, parallel), signal: control.signal };
  emit({ type: "model_start", key, index: position.index, total: position.total });
  const resultId = store.beginResult({
    model: modelRecordOf(target),
    params_hash: ctx.paramsHash,
    backend: backend.kind,
    params: ctx.params,
    prompt: config.prompt,
    context_length: config.context_length,
    num_runs: config.num_runs,
    n_parallel: parallel ? options.n_parallel : 1,
  });
  let instanceId: string | null = null;
  let loadTimeMs: number | null = null;
  const runs: RunMetrics[] = [];
  let failedRuns = 0;
  const warnings: string[] = [];
  let throttleWait = 0;
  const finish = (status: "ok" | "failed" | "stopped", error: string | null, extra: Row = {}) => {
    const figures: ModelFigures = {
      tokens_per_sec_mean: (extra.tokens_per_sec_mean as number | null) ?? null,
      ttft_ms_mean: (extra.ttft_ms_mean as number | null) ?? null,
      runs_ok: runs.length,
      runs_failed: failedRuns,
    };
    store.finishResult(resultId, {
      status,
      error,
      aggregates: { ...ctx.resultMeta, ...extra, runs_ok: runs.length, runs_failed: failedRuns },
    });
    emit({ type: "model_end", key, status, error, figures });
    return status;
  };
  const measure: MeasureContext = {
    backend,
    config,
    signal: control.signal,
    nonce: ctx.nonce,
    reload: async () => {
      emit({
        type: "log",
        level: "warn",
        message: `${key}: model unloaded, reloading and repeating the run once`,
      });
      const loaded = await backend.load(key, load);
      instanceId = loaded.instance_id;
      return instanceId;
    },
  };
  try {
    const loaded = await backend.load(key, load);
    instanceId = loaded.instance_id;
    loadTimeMs = loaded.load_time_ms;
    emit({ type: "model_loaded", key, load_time_ms: loaded.load_time_ms });
    const refreshed = await refreshTarget(backend, target);
    if (refreshed !== target) {
      target = refreshed;
      store.upsertModel(modelRecordOf(target));
    }
    const warmStart = performance.now();
    try {
      instanceId = (await measureOnce(measure, instanceId)).instanceId;
    } catch (err) {
      if (isAbort(err)) throw err;
      throw new Error(`warmup failed: ${messageOf(err)}`, { cause: err });
    }
    const warmupMs = performance.now() - warmStart;
    emit({ type: "warmup_done", key, ms: warmupMs });
    ctx.profiler?.start((sample) => emit({ type: "hardware", sample }));
    for (let i = 0; i < config.num_runs; i++) {
      await control.checkpoint();
      if (ctx.profiler) {
        const waited = await waitForLimits(ctx.profiler, options, control.signal);
        throttleWait += waited.seconds;
        if (waited.warning) warnings.push(waited.warning);
      }
      emit({ type: "run_start", key, run: i + 1, runs: config.num_runs, parallel: 1 });
      try {
        const m = await measureOnce(
          { ...measure, onToken: (text) => emit({ type: "tokens", key, run: i + 1, text }) },
          instanceId,
        );
        instanceId = m.instanceId;
        const metrics = runMetrics(m.result);
        runs.push(metrics);
        store.addRun(resultId, { run_index: i, ...metrics, retried: m.retried ? 1 : 0 });
        emit({
          type: "run_end",
          key,
          run: i + 1,
          runs: config.num_runs,
          ok: true,
          error: null,
          retried: m.retried,
          figures: {
            tokens_per_sec: metrics.tokens_per_sec,
            ttft_ms: metrics.ttft_ms,
            tokens_out: metrics.tokens_out,
            total_ms: metrics.total_ms,
          },
        });
      } catch (err) {
        if (isAbort(err)) throw err;
        failedRuns++;
        store.addRun(resultId, {
          run_index: i,
          status: "failed",
          error: messageOf(err),
          total_ms: 0,
        });
        emit({
          type: "run_end",
          key,
          run: i + 1,
          runs: config.num_runs,
          ok: false,
          error: messageOf(err),
          retried: false,
          figures: null,
        });
      }
    }
    const rounds: ParallelRound[] = [];
    if (parallel) {
      for (let i = 0; i < config.num_runs; i++) {
        await control.checkpoint();
        emit({
          type: "run_start",
          key,
          run: i + 1,
          runs: config.num_runs,
          parallel: options.n_parallel,
        });
        const round = await parallelRound(measure, instanceId, options.n_parallel);
        rounds.push(round);
        round.requests.forEach((metrics, j) =>
          store.addRun(resultId, {
            run_index: 1000 + i * options.n_parallel + j,
            parallel: options.n_parallel,
            ...metrics,
          })
        );
        for (const f of round.failures) warnings.push(`parallel request failed: ${f}`);
      }
    }
    const hardware = ctx.profiler ? await ctx.profiler.stop() : {};
    const vram = ctx.profiler ? await ctx.profiler.vramUsedMb() : null;
    if (runs.length === 0) {
      return finish("failed", "every measured run failed", {
        warnings_json: JSON.stringify(warnings),
      });
    }
    return finish("ok", null, {
      ...aggregateRuns(runs, sizeGiB(target), paramsBillions(target)),
      ...(rounds.length ? aggregateParallel(rounds) : {}),
      ...hardware,
      vram_mb: vram,
      load_time_ms: loadTimeMs,
      warmup_ms: warmupMs,
      throttle_wait_s: throttleWait,
      warnings_json: warnings.length ? JSON.stringify(warnings) : null,
    });
  } catch (err) {
    if (ctx.profiler) await ctx.profiler.stop();
    if (isAbort(err) || control.signal.aborted) return finish("stopped", "stopped by the user");
    finish("failed", messageOf(err));
    // The server itself went away: the next models cannot be measured either, so the job ends.
    const gone = serverGone(err);
    if (gone) throw gone;
    return "failed";
  } finally {
    if (instanceId !== null) {
      await backend.unload(instanceId).catch((err) =>
        emit({ type: "log", level: "warn", message: `${key}: cannot unload: ${messageOf(err)}` })
      );
    }
  }
}

/** The `unreachable` error in an error's cause chain (the server stopped answering), or null. */
export function serverGone(err: unknown): AppError | null {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur instanceof Error; i++) {
    if (cur instanceof AppError && cur.code === "unreachable") return cur;
    if (isConnectionRefused(cur)) {
      return new AppError(503, `The model server stopped answering: ${messageOf(cur)}`, {
        code: "unreachable",
      });
    }
    cur = cur.cause;
  }
  return null;
}
