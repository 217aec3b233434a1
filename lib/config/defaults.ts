/**
 * Built-in defaults, the lowest configuration layer (DECISIONS.md "Benchmark").
 *
 * @module
 */
import type { Config } from "./types.ts";

/** The model server's default ports. */
export const DEFAULT_PORTS: readonly number[] = [1234, 1235];

/** Returns a fresh copy of the built-in defaults. */
export function builtInDefaults(): Config {
  return {
    prompt: "Explain machine learning in 3 sentences.",
    context_length: 2048,
    num_runs: 3,
    modelserver: {
      host: "localhost",
      ports: [...DEFAULT_PORTS],
      api_token: null,
      use_rest_api: false,
      backend: null,
      base_url: null,
    },
    inference: {
      temperature: 0.1,
      top_k_sampling: 40,
      top_p_sampling: 0.9,
      min_p_sampling: 0.05,
      repeat_penalty: 1.2,
      max_tokens: 256,
    },
    load: {
      n_gpu_layers: -1,
      n_batch: 512,
      n_threads: -1,
      flash_attention: true,
      rope_freq_base: null,
      rope_freq_scale: null,
      use_mmap: true,
      use_mlock: false,
      kv_cache_quant: null,
    },
  };
}
