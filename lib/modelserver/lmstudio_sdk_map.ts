/**
 * Mapping between the benchmark's names and `@lmstudio/sdk` 1.5.0: load options to
 * `LLMLoadModelConfig`, prediction stats to
 * {@linkcode ChatStats}.
 *
 * What the SDK cannot set from {@linkcode LoadOptions}: an exact GPU layer count (it takes a
 * ratio: -1 → "max", 0 → "off", any positive count → "max"), `n_parallel` and
 * `unified_kv_cache` (not in 1.5.0). `n_threads` is a prediction setting (`cpuThreads`) and is
 * applied on each chat instead. 1.5.0 never sends `offloadKVCacheToGpu`.
 *
 * @module
 */

import type {
  LLMLlamaCacheQuantizationType,
  LLMLoadModelConfig,
  LLMPredictionStats,
} from "@lmstudio/sdk";
import type { ChatStats, LoadOptions } from "./backend.ts";

const KV_TYPES = new Set(["f32", "f16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"]);

/** The SDK load config for the benchmark's load options. */
export function sdkLoadConfig(opts: LoadOptions): LLMLoadModelConfig {
  const config: LLMLoadModelConfig = {
    contextLength: opts.context_length,
    gpu: { ratio: opts.n_gpu_layers === 0 ? "off" : "max" },
    flashAttention: opts.flash_attention,
    evalBatchSize: opts.n_batch,
    tryMmap: opts.use_mmap,
    keepModelInMemory: opts.use_mlock,
  };
  if (opts.rope_freq_base !== null) config.ropeFrequencyBase = opts.rope_freq_base;
  if (opts.rope_freq_scale !== null) config.ropeFrequencyScale = opts.rope_freq_scale;
  const kv = opts.kv_cache_quant?.toLowerCase();
  if (kv !== undefined && KV_TYPES.has(kv)) {
    config.llamaKCacheQuantizationType = kv as LLMLlamaCacheQuantizationType;
    config.llamaVCacheQuantizationType = kv as LLMLlamaCacheQuantizationType;
  }
  return config;
}

/** Run stats from SDK prediction stats. */
export function statsFromSdk(s: LLMPredictionStats): ChatStats {
  const sec = (v: number | undefined) => (v === undefined ? null : v * 1000);
  return {
    tokens_in: s.promptTokensCount ?? 0,
    tokens_out: s.predictedTokensCount ?? 0,
    time_to_first_token_ms: sec(s.timeToFirstTokenSec),
    total_time_ms: sec(s.totalTimeSec),
    tokens_per_second: s.tokensPerSecond ?? null,
    stop_reason: s.stopReason,
  };
}
