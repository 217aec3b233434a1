/**
 * The cache key of a benchmark: a hash of every value that changes what is measured (prompt,
 * context, sampling, the load values the backend can set, backend, parallelism and the controlled
 * workload). A changed parameter is a cache miss; a value the backend cannot apply, or an option
 * that does nothing in this setting, is left out of the key (it would not change the measurement).
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { BackendKind, Config } from "../config/mod.ts";
import { workloadOf, type WorkloadOptions } from "./options.ts";
import { canSet } from "./applied.ts";

/** Everything a measurement depends on. */
export interface MeasuredParams {
  prompt: string;
  context_length: number;
  inference: Config["inference"];
  load: Config["load"];
  backend: BackendKind;
  n_parallel: number;
  unified_kv_cache: boolean;
  /** The controlled workload and load curve, only when one is asked for. */
  workload?: Partial<WorkloadOptions>;
}

/** The workload values that change what is measured (none set: undefined). */
function measuredWorkload(w: WorkloadOptions): Partial<WorkloadOptions> | undefined {
  const out: Partial<WorkloadOptions> = {};
  if (w.prompt_tokens.length) out.prompt_tokens = w.prompt_tokens;
  if (w.gen_tokens.length) out.gen_tokens = w.gen_tokens;
  if (w.concurrency.length || w.request_rate.length) {
    Object.assign(out, {
      concurrency: w.concurrency,
      request_rate: w.request_rate,
      requests: w.requests,
      seed: w.seed,
      slo_ttft_ms: w.slo_ttft_ms,
      slo_tpot_ms: w.slo_tpot_ms,
    });
  }
  return Object.keys(out).length ? out : undefined;
}

/** The measured parameters of a configuration and run options (every value, as requested). */
export function measuredParams(
  config: Config,
  backend: BackendKind,
  run: { n_parallel: number; unified_kv_cache: boolean; workload?: WorkloadOptions },
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
  const workload = measuredWorkload(workloadOf(run));
  if (workload) params.workload = workload;
  return params;
}

/** The part of the parameters that is hashed: load values the backend cannot set are left out. */
export function keyedParams(params: MeasuredParams): MeasuredParams {
  if (params.backend === "sdk") return params;
  const load = Object.fromEntries(
    Object.entries(params.load).filter(([k]) => canSet(params.backend, k)),
  ) as Config["load"];
  const keyed: MeasuredParams & { offload_kv_cache_to_gpu?: boolean } = { ...params, load };
  // REST v1 sends n_gpu_layers only as KV-cache offload on/off.
  if (params.backend === "rest") keyed.offload_kv_cache_to_gpu = params.load.n_gpu_layers !== 0;
  if (!canSet(params.backend, "context_length")) {
    delete (keyed as Partial<MeasuredParams>).context_length;
  }
  return keyed;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 over the canonical JSON of the parameters, first 16 hex digits. */
export function paramsHash(params: MeasuredParams): string {
  return createHash("sha256").update(canonical(keyedParams(params))).digest("hex").slice(0, 16);
}
