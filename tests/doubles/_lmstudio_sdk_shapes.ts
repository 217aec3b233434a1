/**
 * SDK 1.5.0 payload shapes built from the catalogue and state: camelCase model info, instance
 * info, KV configs and prediction stats (validated by the SDK's zod schemas, so exact).
 *
 * @module
 */

import { type CatalogueModel, variantKey, type VariantSpec } from "./_lmstudio_catalogue.ts";
import type { Generation } from "./_lmstudio_gen.ts";
import type { Instance } from "./_lmstudio_state.ts";

/** `ModelInfo` (`llmInfoSchema` / `embeddingModelInfoSchema`). */
export function sdkModelInfo(
  m: CatalogueModel,
  v: VariantSpec = m.variants[0]!,
): Record<string, unknown> {
  const info: Record<string, unknown> = {
    type: m.type,
    modelKey: m.key,
    format: m.format === "mlx" ? "safetensors" : m.format,
    displayName: m.display_name,
    path: `${m.publisher}/${m.key.split("/").pop()}-GGUF/${m.key.split("/").pop()}-${v.name}.gguf`,
    sizeBytes: v.size_bytes,
    quantization: { name: v.name, bits: v.bits },
    maxContextLength: m.max_context_length,
  };
  if (m.params_string !== null) info.paramsString = m.params_string;
  if (m.architecture !== null) info.architecture = m.architecture;
  if (m.type === "llm") {
    info.vision = m.vision;
    info.trainedForToolUse = m.trained_for_tool_use;
  }
  return info;
}

/**
 * One entry of `listDownloadedModels` as a current LM Studio sends it: the model key with the
 * selected variant's file, plus `publisher`, `variants` (every variant key, as REST lists them)
 * and `selectedVariant`. SDK 1.5.0's schemas do not know the last three and drop them.
 */
export function sdkListedModel(m: CatalogueModel): Record<string, unknown> {
  return {
    ...sdkModelInfo(m),
    publisher: m.publisher,
    variants: m.variants.map((v) => variantKey(m, v)),
    selectedVariant: variantKey(m, m.variants[0]!),
  };
}

/** One entry of `listDownloadedModelVariants`: a variant under its own key. */
export function sdkVariantInfo(m: CatalogueModel, v: VariantSpec): Record<string, unknown> {
  return { ...sdkModelInfo(m, v), modelKey: variantKey(m, v), publisher: m.publisher };
}

/** Instance info (`llmInstanceInfoSchema` / `embeddingModelInstanceInfoSchema`). */
export function sdkInstanceInfo(i: Instance): Record<string, unknown> {
  return {
    ...sdkModelInfo(i.model, i.variant),
    identifier: i.id,
    instanceReference: `ref-${i.id}`,
    contextLength: i.config.context_length,
  };
}

/** A KV config of the instance's load settings. */
export function sdkLoadConfig(i: Instance): { fields: { key: string; value: unknown }[] } {
  return {
    fields: [
      { key: "llm.load.contextLength", value: i.config.context_length },
      { key: "llm.load.llama.evalBatchSize", value: i.config.eval_batch_size },
      { key: "llm.load.llama.flashAttention", value: i.config.flash_attention },
    ],
  };
}

/** Reads the fields of a KV config stack (later layers win). */
export function stackFields(stack: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const layers =
    (stack as { layers?: { config?: { fields?: { key: string; value: unknown }[] } }[] })?.layers ??
      [];
  for (const layer of layers) {
    for (const f of layer.config?.fields ?? []) out.set(f.key, f.value);
  }
  return out;
}

/** Maps SDK load fields to the state's load config. */
export function loadConfigFromStack(stack: unknown): Partial<Instance["config"]> {
  const f = stackFields(stack);
  const cfg: Partial<Instance["config"]> = {};
  const ctx = f.get("llm.load.contextLength");
  if (typeof ctx === "number") cfg.context_length = ctx;
  const batch = f.get("llm.load.llama.evalBatchSize");
  if (typeof batch === "number") cfg.eval_batch_size = batch;
  const fa = f.get("llm.load.llama.flashAttention");
  if (typeof fa === "boolean") cfg.flash_attention = fa;
  const ratio = f.get("llm.load.llama.acceleration.offloadRatio");
  if (ratio !== undefined) cfg.offload_kv_cache_to_gpu = ratio !== "off" && ratio !== 0;
  return cfg;
}

/** `llmPredictionStatsSchema` for a generation that emitted `n` tokens. */
export function sdkStats(gen: Generation, n: number, stopReason: string): Record<string, unknown> {
  return {
    stopReason,
    tokensPerSecond: gen.tokensPerSecond,
    numGpuLayers: -1,
    timeToFirstTokenSec: gen.ttftSeconds,
    totalTimeSec: gen.ttftSeconds + n / gen.tokensPerSecond,
    promptTokensCount: gen.tokensIn,
    predictedTokensCount: n,
    totalTokensCount: gen.tokensIn + n,
  };
}
