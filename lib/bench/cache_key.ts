/**
 * The cache key of a benchmark: a hash of every value that changes what is measured (prompt,
 * context, sampling, the load values the backend can set, backend, parallelism and the controlled
 * workload: lengths and their spread, dataset and its content, seed, arrivals, duration, SLOs). A
 * changed parameter is a cache miss; a value the backend cannot apply, or an option that does
 * nothing in this setting, is left out of the key (it would not change the measurement).
 *
 * @module
 */
import type { BackendKind, Config } from "../config/mod.ts";
import {
  cellParams,
  type IdentityParams,
  type LoadKey,
  paramsHash as identityHash,
} from "../store/mod.ts";
import { type FullWorkload, workloadOf, type WorkloadOptions } from "./options.ts";

/** Everything a measurement depends on. */
export interface MeasuredParams {
  prompt: string;
  context_length: number;
  inference: Config["inference"];
  load: Config["load"];
  backend: BackendKind;
  n_parallel: number;
  unified_kv_cache: boolean;
  /**
   * The controlled workload and load curve, only when one is asked for: lengths and their spread,
   * the dataset (path, content hash, sample), seed, warm-up, arrivals, duration and SLOs.
   */
  workload?: Record<string, unknown>;
}

/**
 * The workload values that change what is measured (none set: undefined). A value at its default
 * is left out, so a workload that does not use an option keeps the key it had before the option.
 */
function measuredWorkload(
  w: FullWorkload,
  datasetSha256: string | null,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (w.prompt_tokens.length) out.prompt_tokens = w.prompt_tokens;
  if (w.gen_tokens.length) out.gen_tokens = w.gen_tokens;
  // Depths other than 0 only: `--kv-depth 0` measures what a run without it does.
  if (w.kv_depth.some((d) => d > 0)) out.kv_depth = w.kv_depth;
  if (w.shared_prefix_tokens > 0) out.shared_prefix_tokens = w.shared_prefix_tokens;
  if (w.prompt_tokens.length && w.prompt_tokens_stddev > 0) {
    out.prompt_tokens_stddev = w.prompt_tokens_stddev;
  }
  if (w.gen_tokens.length && w.gen_tokens_stddev > 0) out.gen_tokens_stddev = w.gen_tokens_stddev;
  if ((w.prompt_tokens.length || w.gen_tokens.length) && w.range_ratio > 0) {
    out.range_ratio = w.range_ratio;
  }
  if (w.dataset !== null) {
    out.dataset = { path: w.dataset, sha256: datasetSha256, sample: w.dataset_sample };
  }
  // The seed draws the lengths and the dataset's sample as well as the arrivals.
  if (out.prompt_tokens_stddev || out.gen_tokens_stddev || out.range_ratio || out.dataset) {
    out.seed = w.seed;
  }
  if (w.warmup_requests !== 1) out.warmup_requests = w.warmup_requests;
  if (w.concurrency.length || w.request_rate.length) {
    // Every load key, as the store drops them from a grid's other cells (LOAD_KEYS).
    const load: Record<LoadKey, unknown> = {
      concurrency: w.concurrency,
      request_rate: w.request_rate,
      requests: w.duration_s === null ? w.requests : undefined,
      slo_ttft_ms: w.slo_ttft_ms,
      slo_tpot_ms: w.slo_tpot_ms,
      slo_e2el_ms: w.slo_e2el_ms ?? undefined,
      burstiness: w.request_rate.length && w.burstiness !== 1 ? w.burstiness : undefined,
      duration_s: w.duration_s ?? undefined,
    };
    Object.assign(out, { ...load, seed: w.seed });
  }
  return Object.keys(out).length ? out : undefined;
}

/** The measured parameters of a configuration and run options (every value, as requested). */
export function measuredParams(
  config: Config,
  backend: BackendKind,
  run: {
    n_parallel: number;
    unified_kv_cache: boolean;
    workload?: WorkloadOptions;
    /** The content hash of the `--dataset` file, read by the job. */
    dataset_sha256?: string | null;
  },
): MeasuredParams {
  const params: MeasuredParams = {
    prompt: config.prompt,
    context_length: config.context_length,
    inference: { ...config.inference },
    load: { ...config.load },
    backend,
    // Parallel rounds only exist where a backend can run them (REST and OpenAI-compatible).
    n_parallel: backend === "sdk" ? 1 : run.n_parallel,
    // No backend API here can set a unified K/V cache: it never changes a measurement.
    unified_kv_cache: false,
  };
  const workload = measuredWorkload(workloadOf(run), run.dataset_sha256 ?? null);
  if (workload) params.workload = workload;
  return params;
}

/** SHA-256 over the canonical JSON of the keyed parameters, first 16 hex digits (store identity). */
export function paramsHash(params: MeasuredParams): string {
  return identityHash(params as unknown as IdentityParams);
}

/**
 * The identities a benchmark with these parameters stores for each variant: one, or one per cell
 * of a grid of several prompt or output lengths (the first keeps the parallel rounds and the load
 * curve), as the store splits it (lib/store/split.ts).
 */
export function identityHashes(params: MeasuredParams): string[] {
  const list = (v: unknown): (number | null)[] =>
    Array.isArray(v) && v.length ? v.filter((x) => typeof x === "number") : [null];
  const prompts = list(params.workload?.prompt_tokens);
  const gens = list(params.workload?.gen_tokens);
  const depths = list(params.workload?.kv_depth);
  const cells = depths.flatMap((d) =>
    prompts.flatMap((p) => gens.map((g) => ({ prompt_tokens: p, gen_tokens: g, kv_depth: d })))
  );
  if (cells.length < 2) return [paramsHash(params)];
  const id = params as unknown as IdentityParams;
  return cells.map((c, i) => identityHash(cellParams(id, c, i === 0)));
}
