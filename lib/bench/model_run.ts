/**
 * The per-model sequence: load, the warm-up requests, N measured runs (then the parallel rounds and
 * the load curve), unload.
 * Every run is stored as it completes; a failing model is recorded with its error and the job goes
 * on with the next one, unless the server itself stopped answering.
 *
 * @module
 */
import { messageOf, UnreachableError } from "../error.ts";
import { isConnectionRefused } from "../modelserver/mod.ts";
import { isAbort } from "./job_control.ts";
import { waitForLimits } from "./limits.ts";
import { noteSensors } from "./honesty.ts";
import { aggregateRuns } from "./metrics.ts";
import { burstNote } from "./burst.ts";
import { type ModelRunContext, ModelSession, type ModelStatus } from "./model_session.ts";
import { aggregateParallel } from "./parallel.ts";
import { gridRows } from "./workload.ts";
import { prefixEffect, prefixEffectText } from "./shared_prefix.ts";
import { runLoadCurve } from "./model_load.ts";
import { runParallelRound } from "./model_parallel.ts";
import { workloadOf } from "./options.ts";
import { paramsBillions, sizeGiB, type Target } from "./target.ts";

export { loadOptionsOf } from "./model_session.ts";
export type { ModelRunContext, ModelStatus } from "./model_session.ts";

/** Runs one model; returns how it ended. Throws only when the model server is gone. */
export async function runModel(
  target: Target,
  ctx: ModelRunContext,
  position: { index: number; total: number },
): Promise<ModelStatus> {
  const { emit, control, config, options, profiler } = ctx;
  emit({ type: "model_start", key: target.key, index: position.index, total: position.total });
  const s = new ModelSession(target, ctx);
  try {
    // A pause holds every phase: it takes effect before the load, the warmup, each run, each
    // parallel round and each load level (a request already sent finishes).
    await control.checkpoint();
    await s.load();
    await control.checkpoint();
    const warmupMs = await s.warmup();
    await control.checkpoint();
    const plan = await s.prepareWorkload();
    // The warm-ups shaped as the workload need its plan; they end before the hardware sampling.
    await s.moreWarmups();
    profiler?.start((sample) => emit({ type: "hardware", sample }));
    let throttleWait = 0;
    const workload = workloadOf(options);
    const controlled = plan.controlled;
    // A grid of lengths has cells; a dataset's requests are one set, kept by run.
    const grid = workload.prompt_tokens.length > 0 || workload.gen_tokens.length > 0 ||
      plan.cells.some((c) => !!c.kv_depth);
    const steps = plan.cells.flatMap((cell) =>
      Array.from({ length: config.num_runs }, () => controlled ? cell : undefined)
    );
    for (const [i, cell] of steps.entries()) {
      await control.checkpoint();
      if (profiler) {
        const waited = await waitForLimits(profiler, options, control.signal);
        throttleWait += waited.seconds;
        if (waited.warning) s.warnings.push(waited.warning);
        const sample = profiler.latest();
        if (sample && ctx.sensors && !ctx.sensors.known) {
          noteSensors(ctx.sensors, sample, options, emit);
          s.refreshApplied();
        }
      }
      await s.measuredRun(i, cell, steps.length);
    }
    for (let i = 0; s.parallel && i < config.num_runs; i++) {
      await control.checkpoint();
      await runParallelRound(s, i);
    }
    if (workload.concurrency.length || workload.request_rate.length) await runLoadCurve(s);
    const hardware = profiler ? await profiler.stop() : {};
    const vram = profiler ? await profiler.vramUsedMb() : null;
    // A sensor that cannot be read is a note of the result, not a silent null.
    for (const message of profiler?.unreadable() ?? []) s.warnings.push(message);
    const burst = burstNote(s.runs);
    if (burst !== null) s.warnings.push(burst);
    const warningsJson = () => s.warnings.length ? JSON.stringify(s.warnings) : null;
    if (s.runs.length === 0) {
      const why = s.excludedRuns > 0 && s.failedRuns === 0
        ? "every measured run was left out: the model was loaded during each"
        : "every measured run failed";
      return s.finish("failed", why, { warnings_json: warningsJson() });
    }
    if (grid) {
      ctx.store.addGridCells(
        s.resultId,
        gridRows(plan.cells, s.cellRuns, plan.outputControl === "exact"),
      );
    }
    const figures = aggregateRuns(s.runs, sizeGiB(s.target), paramsBillions(s.target));
    const workloadSummary = plan.summary();
    if (plan.prefix) {
      const effect = prefixEffect(
        { tokens: plan.prefix.target, counted: plan.prefix.tokens },
        s.sequentialTtfts,
        s.sequentialCached,
      );
      workloadSummary.shared_prefix = { ...workloadSummary.shared_prefix as object, ...effect };
      emit({ type: "log", level: "info", message: prefixEffectText(s.key, effect) });
    }
    // Partial: a run or a request failed, or no run kept a decode speed (every stream a burst
    // without a server figure): figures, but not a result to keep as measured.
    const noSpeed = figures.tokens_per_sec_mean === null;
    if (noSpeed) s.warnings.push("no run kept a decode speed: measure again");
    const partial = s.failedRuns > 0 || s.failedRequests > 0 || noSpeed;
    const status = s.finish(partial ? "partial" : "ok", null, {
      ...figures,
      ...(s.rounds.length ? aggregateParallel(s.rounds) : {}),
      ...hardware,
      vram_mb: vram,
      load_time_ms: s.loadTimeMs,
      warmup_ms: warmupMs,
      throttle_wait_s: throttleWait,
      warnings_json: warningsJson(),
      workload_json: workloadJson(controlled ? workloadSummary : null, options.percentiles),
    }, controlled ? plan.cells.length : 1);
    // One result per identity: each cell of a grid is stored as its own result.
    if (controlled && plan.cells.length > 1) {
      for (const id of ctx.store.splitGrid(s.resultId).slice(1)) ctx.onResult?.(id);
    }
    return status;
  } catch (err) {
    if (profiler) await profiler.stop();
    if (isAbort(err) || control.signal.aborted) return s.finish("stopped", "stopped by the user");
    s.finish("failed", messageOf(err));
    // The server itself went away: the next models cannot be measured either, so the job ends.
    const gone = serverGone(err);
    if (gone) throw gone;
    return "failed";
  } finally {
    await s.unload();
  }
}

/** The `unreachable` error in an error's cause chain (the server stopped answering), or null. */
export function serverGone(err: unknown): UnreachableError | null {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur instanceof Error; i++) {
    if (cur instanceof UnreachableError) return cur;
    if (isConnectionRefused(cur)) {
      return new UnreachableError(`The model server stopped answering: ${messageOf(cur)}`);
    }
    cur = cur.cause;
  }
  return null;
}

/**
 * What `results.workload_json` keeps: the controlled workload's summary and the `--percentiles`
 * asked for (so a report made later shows them); null when neither.
 */
export function workloadJson(
  summary: Record<string, unknown> | null,
  percentiles: readonly number[] | null | undefined,
): string | null {
  const chosen = percentiles?.length ? { percentiles: [...percentiles] } : {};
  const out = { ...(summary ?? {}), ...chosen };
  return Object.keys(out).length ? JSON.stringify(out) : null;
}
