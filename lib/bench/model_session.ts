/**
 * The state of one model's benchmark: its result row, the loaded instance, the measured runs,
 * failures and warnings. {@linkcode runModel} drives it step by step.
 *
 * @module
 */
import { messageOf } from "../error.ts";
import type { LoadOptions, ServerConfig } from "../modelserver/mod.ts";
import type { Row } from "../store/mod.ts";
import { isAbort } from "./job_control.ts";
import type { ModelFigures } from "./events.ts";
import {
  type MeasureContext,
  type Measured,
  measureOnce,
  type RequestShape,
  samplingOf,
} from "./measure.ts";
import { type Cell, cellLabel, type CellRun, stoppedEarly } from "./workload.ts";
import { type PlannedRequest, WorkloadPlan } from "./workload_plan.ts";
import { workloadOf } from "./options.ts";
import { type RunMetrics, runMetrics } from "./metrics.ts";
import type { ParallelRound } from "./parallel.ts";
import { type AppliedParams, appliedParams } from "./applied.ts";
import { ReloadWatch, ttftContext } from "./reload.ts";
import { modelRecordOf, refreshTarget, type Target } from "./target.ts";
import { loadOptionsOf, type ModelRunContext, type ModelStatus } from "./model_context.ts";

export { loadOptionsOf };
export type { ModelRunContext, ModelStatus };

/** One model's benchmark in progress. */
export class ModelSession {
  readonly ctx: ModelRunContext;
  target: Target;
  readonly key: string;
  /** Whether parallel rounds follow the sequential runs. */
  readonly parallel: boolean;
  readonly resultId: number;
  instanceId: string | null = null;
  loadTimeMs: number | null = null;
  readonly runs: RunMetrics[] = [];
  /** The measured runs with their grid cell (controlled workloads). */
  readonly cellRuns: CellRun[] = [];
  /** The TTFT of every sequential measured run in order (null: failed): the prefix's effect. */
  readonly sequentialTtfts: (number | null)[] = [];
  /** The prompt tokens the server took from its cache, per sequential run (null: not said). */
  readonly sequentialCached: (number | null)[] = [];
  /** The controlled workload, prepared after the warmup. */
  plan: WorkloadPlan | null = null;
  readonly rounds: ParallelRound[] = [];
  failedRuns = 0;
  /** Requests of the parallel rounds and load levels that failed (they make a result partial). */
  failedRequests = 0;
  readonly warnings: string[] = [];
  /** Every load and sampling value as requested and as applied (after the load). */
  applied: AppliedParams | null = null;
  readonly #load: LoadOptions;
  readonly #watch: ReloadWatch;
  /** Runs left out of the statistics because the model was loaded during them. */
  excludedRuns = 0;
  #server: ServerConfig | null = null;
  readonly #measure: MeasureContext;

  constructor(target: Target, ctx: ModelRunContext) {
    const { backend, config, options, control } = ctx;
    this.ctx = ctx;
    this.target = target;
    this.key = target.key;
    this.parallel = backend.kind !== "sdk" && options.n_parallel > 1;
    this.#load = { ...loadOptionsOf(config, options, this.parallel), signal: control.signal };
    this.resultId = ctx.store.beginResult({
      model: modelRecordOf(target),
      params_hash: ctx.paramsHash,
      backend: backend.kind,
      params: ctx.params,
      prompt: config.prompt,
      context_length: config.context_length,
      num_runs: config.num_runs,
      n_parallel: this.parallel ? options.n_parallel : 1,
      machine_id: ctx.machine?.id ?? null,
      system_json: ctx.machine ? JSON.stringify(ctx.machine) : null,
    });
    ctx.onResult?.(this.resultId);
    this.#watch = new ReloadWatch(backend, this.key);
    this.#measure = {
      backend,
      config,
      signal: control.signal,
      nonce: ctx.nonce,
      reload: async () => {
        this.#log("warn", `${this.key}: model unloaded, reloading and repeating the run once`);
        this.instanceId = (await backend.load(this.#loadKey, this.#load)).instance_id;
        // Our own reload happens before the repeated run: its time is not the run's.
        await this.#watch.baseline(this.instanceId);
        return this.instanceId;
      },
    };
  }

  /** What the server loads the variant by (its identity, unless the server named it otherwise). */
  get #loadKey(): string {
    return this.target.load_key ?? this.key;
  }

  #log(level: "warn" | "info", message: string): void {
    this.ctx.emit({ type: "log", level, message });
  }

  /** Loads the model and completes its metadata from the server's list. */
  async load(): Promise<void> {
    const loaded = await this.ctx.backend.load(this.#loadKey, this.#load);
    this.instanceId = loaded.instance_id;
    this.loadTimeMs = loaded.load_time_ms;
    this.ctx.emit({ type: "model_loaded", key: this.key, load_time_ms: loaded.load_time_ms });
    const refreshed = await refreshTarget(this.ctx.backend, this.target);
    if (refreshed !== this.target) {
      this.target = refreshed;
      this.ctx.store.upsertModel(modelRecordOf(refreshed));
    }
    await this.#readApplied();
  }

  /** Reads back what the server runs with and records it beside what was requested. */
  async #readApplied(): Promise<void> {
    this.#server = await this.ctx.backend.serverConfig?.(this.key, this.instanceId!).catch(
      (err) => {
        if (isAbort(err)) throw err;
        this.#log("info", `${this.key}: cannot read the applied load values: ${messageOf(err)}`);
        return null;
      },
    ) ?? null;
    this.refreshApplied();
  }

  /** The server's parallel slots for this model, where it tells (llama.cpp `/props`). */
  get slots(): number | null {
    return this.#server?.parallel ?? null;
  }

  /** Computes the applied values again (the sensors become known at the first limit wait). */
  refreshApplied(): void {
    const { backend, config, options, sensors } = this.ctx;
    const server = this.#server;
    this.applied = appliedParams({
      config,
      backend: backend.kind,
      n_parallel: options.n_parallel,
      unified_kv_cache: options.unified_kv_cache,
      llamacpp: this.ctx.llamacpp ?? false,
      server,
      limits: {
        max_temp: options.max_temp,
        max_power: options.max_power,
        temp_active: options.enable_profiling && (sensors?.temp ?? false),
        power_active: options.enable_profiling && (sensors?.power ?? false),
      },
    });
  }

  /**
   * The first warm-up request (not stored), with the configured prompt; returns its duration in
   * ms (null with `--warmup-requests 0`). The others follow the workload: {@linkcode moreWarmups}.
   */
  async warmup(): Promise<number | null> {
    if (workloadOf(this.ctx.options).warmup_requests === 0) {
      await this.#watch.baseline(this.instanceId!);
      return null;
    }
    const started = performance.now();
    await this.#warmupRequest({});
    const ms = performance.now() - started;
    this.ctx.emit({ type: "warmup_done", key: this.key, ms });
    await this.#watch.baseline(this.instanceId!);
    return ms;
  }

  async #warmupRequest(shape: RequestShape): Promise<void> {
    try {
      this.instanceId = (await measureOnce(this.#measure, this.instanceId!, shape)).instanceId;
    } catch (err) {
      if (isAbort(err)) throw err;
      throw new Error(`warmup failed: ${messageOf(err)}`, { cause: err });
    }
  }

  /** The other `--warmup-requests` (not stored), shaped as the workload's requests. */
  async moreWarmups(): Promise<void> {
    const n = workloadOf(this.ctx.options).warmup_requests;
    for (let i = 1; i < n; i++) {
      await this.ctx.control.checkpoint();
      const planned = this.plan?.controlled
        ? (await this.plan.warmupRequest(i - 1, this.ctx.nonce())).shape
        : {};
      await this.#warmupRequest(planned);
    }
    if (n > 1) await this.#watch.baseline(this.instanceId!);
  }

  /** Prepares the controlled workload (the server's tokenizer, or calibration probes). */
  async prepareWorkload(): Promise<WorkloadPlan> {
    const { backend, config, options } = this.ctx;
    this.plan = await WorkloadPlan.prepare(
      backend,
      this.instanceId!,
      workloadOf(options),
      { ...samplingOf(config), signal: this.ctx.control.signal },
      this.ctx.dataset ?? null,
    );
    if (this.plan.method === "calibrated") {
      this.#log(
        "info",
        `${this.key}: the server has no tokenizer endpoint, so prompt lengths are calibrated ` +
          "with probe requests and reported as approximate",
      );
    }
    return this.plan;
  }

  /**
   * Measured run `index` (0-based over every cell) of `total`, of `cell` when a workload is set:
   * stored whether it succeeds or fails.
   */
  async measuredRun(index: number, cell?: Cell, total?: number): Promise<void> {
    const { emit, store, config } = this.ctx;
    const run = index + 1;
    const runs = total ?? config.num_runs;
    emit({
      type: "run_start",
      key: this.key,
      run,
      runs,
      parallel: 1,
      ...(cell ? { cell: cellLabel(cell) } : {}),
    });
    const depth: Record<string, number> = cell?.kv_depth ? { kv_depth: cell.kv_depth } : {};
    // The first measured request of a model finds the shared prefix cold (warm-ups carry none).
    if (this.plan?.prefix) depth.prefix_cold = index === 0 ? 1 : 0;
    let target: Record<string, number | null> = cell
      ? { prompt_tokens_target: cell.prompt_tokens, gen_tokens_target: cell.gen_tokens, ...depth }
      : {};
    try {
      const request: PlannedRequest = cell && this.plan
        ? await this.plan.request(cell, this.ctx.nonce())
        : { shape: {}, prompt_exact: false, prompt_target: null, gen_target: null };
      if (cell) {
        target = {
          prompt_tokens_target: request.prompt_target,
          gen_tokens_target: request.gen_target,
          ...depth,
        };
      }
      const m = await measureOnce(
        { ...this.#measure, onToken: (text) => emit({ type: "tokens", key: this.key, run, text }) },
        this.instanceId!,
        request.shape,
      );
      this.instanceId = m.instanceId;
      const metrics = runMetrics(m.result, m.sent_at_ms);
      this.sequentialTtfts.push(metrics.ttft_ms);
      const cached = m.result.stats.cached_tokens ?? null;
      this.sequentialCached.push(cached);
      const reload = await this.#watch.check(this.instanceId!, m.result);
      const excluded = reload === null
        ? null
        : `excluded from the statistics: ${reload}${
          ttftContext(metrics.ttft_ms, this.runs.map((r) => r.ttft_ms))
        }`;
      if (excluded === null) {
        this.runs.push(metrics);
        if (cell) {
          this.cellRuns.push({
            cell,
            metrics,
            prompt_exact: request.prompt_exact,
            gen_target: request.gen_target,
          });
        }
      } else {
        this.excludedRuns++;
        this.warnings.push(`run ${run} ${excluded}`);
      }
      store.addRun(this.resultId, {
        run_index: index,
        ...metrics,
        ...target,
        ...(this.plan?.prefix ? { server_cached_tokens: cached } : {}),
        ...(request.prompt_target !== null ? { prompt_exact: request.prompt_exact ? 1 : 0 } : {}),
        ...(request.gen_target !== null
          ? { stopped_early: stoppedEarly(request.gen_target, metrics) }
          : {}),
        ...(excluded === null ? {} : { status: "excluded", error: excluded }),
        retried: m.retried ? 1 : 0,
      });
      const { tokens_per_sec, ttft_ms, tokens_out, total_ms } = metrics;
      emit({
        type: "run_end",
        key: this.key,
        run,
        runs,
        ok: true,
        error: null,
        retried: m.retried,
        figures: { tokens_per_sec, ttft_ms, tokens_out, total_ms },
        ...(excluded === null ? {} : { excluded }),
      });
    } catch (err) {
      if (isAbort(err)) throw err;
      this.failedRuns++;
      this.sequentialTtfts.push(null);
      this.sequentialCached.push(null);
      const error = messageOf(err);
      store.addRun(this.resultId, {
        run_index: index,
        status: "failed",
        error,
        total_ms: 0,
        ...target,
      });
      emit({
        type: "run_end",
        key: this.key,
        run,
        runs,
        ok: false,
        error,
        retried: false,
        figures: null,
      });
    }
  }

  /** How this model's requests are sent (the reload retry included). */
  get measure(): MeasureContext {
    return this.#measure;
  }

  /** One request of this model with the given shape (the reload retry included). */
  request(shape: RequestShape): Promise<Measured> {
    return measureOnce(this.#measure, this.instanceId!, shape);
  }

  /**
   * Stores how the model ended and emits `model_end`; `identities` is how many results the runs
   * become (a grid's cells, split after this).
   */
  finish(status: ModelStatus, error: string | null, extra: Row = {}, identities = 1): ModelStatus {
    const runsOk = this.runs.length;
    // A grid's cells are stored as results of their own: a mean over all of them means nothing.
    const mixed = identities > 1;
    const figures: ModelFigures = {
      tokens_per_sec_mean: mixed ? null : (extra.tokens_per_sec_mean as number | null) ?? null,
      ttft_ms_mean: mixed ? null : (extra.ttft_ms_mean as number | null) ?? null,
      ...(mixed ? { identities } : {}),
      runs_ok: runsOk,
      runs_failed: this.failedRuns,
      runs_excluded: this.excludedRuns,
    };
    this.ctx.store.finishResult(this.resultId, {
      status,
      error,
      aggregates: {
        ...this.ctx.resultMeta,
        ...extra,
        ...(this.applied ? { applied_json: JSON.stringify(this.applied) } : {}),
        runs_ok: runsOk,
        runs_failed: this.failedRuns,
        runs_excluded: this.excludedRuns,
      },
    });
    this.ctx.emit({ type: "model_end", key: this.key, status, error, figures });
    return status;
  }

  /** Unloads the instance, if any; a failure is only reported. */
  async unload(): Promise<void> {
    if (this.instanceId === null) return;
    await this.ctx.backend.unload(this.instanceId).catch((err) =>
      this.#log("warn", `${this.key}: cannot unload: ${messageOf(err)}`)
    );
  }
}
