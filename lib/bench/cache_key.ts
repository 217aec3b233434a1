/**
 * The cache key of a benchmark: a hash of every value that changes what is measured (prompt,
 * context, sampling, load values, backend and parallelism). A changed parameter is a cache miss.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { BackendKind, Config } from "../config/mod.ts";

/** Everything a measurement depends on. */
export interface MeasuredParams {
  prompt: string;
  context_length: number;
  inference: Config["inference"];
  load: Config["load"];
  backend: BackendKind;
  n_parallel: number;
  unified_kv_cache: boolean;
}

/** The measured parameters of a configuration and run options. */
export function measuredParams(
  config: Config,
  backend: BackendKind,
  run: { n_parallel: number; unified_kv_cache: boolean },
): MeasuredParams {
  return {
    prompt: config.prompt,
    context_length: config.context_length,
    inference: { ...config.inference },
    load: { ...config.load },
    backend,
    // Parallel rounds only exist where a backend can run them (REST and OpenAI-compatible).
    n_parallel: backend === "sdk" ? 1 : run.n_parallel,
    unified_kv_cache: backend === "sdk" ? false : run.unified_kv_cache,
  };
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
  return createHash("sha256").update(canonical(params)).digest("hex").slice(0, 16);
}
