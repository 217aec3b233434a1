/**
 * The cache key of a benchmark: a hash of every value that changes what is measured (prompt,
 * context, sampling, the load values the backend can set, backend, parallelism and the controlled
 * workload). A changed parameter is a cache miss; a value the backend cannot apply, or an option
 * that does nothing in this setting, is left out of the key (it would not change the measurement).
 *
 * @module
 */
import type { BackendKind, Config } from "../config/mod.ts";
import { cellParams, type IdentityParams, paramsHash as identityHash } from "../store/mod.ts";
import { workloadOf, type WorkloadOptions } from "./options.ts";

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
  const w = params.workload ?? {};
  const prompts: (number | null)[] = w.prompt_tokens?.length ? w.prompt_tokens : [null];
  const gens: (number | null)[] = w.gen_tokens?.length ? w.gen_tokens : [null];
  const cells = prompts.flatMap((p) => gens.map((g) => ({ prompt_tokens: p, gen_tokens: g })));
  if (cells.length < 2) return [paramsHash(params)];
  const id = params as unknown as IdentityParams;
  return cells.map((c, i) => identityHash(cellParams(id, c, i === 0)));
}
