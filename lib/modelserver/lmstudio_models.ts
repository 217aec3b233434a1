/**
 * LM Studio's camelCase model list (the SDK protocol's `listDownloadedModels`, which `lms ls
 * --json` prints) as model entries, one per variant. A current server lists one entry per model
 * with `variants` (the variant keys, `publisher/model@quant`) and `selectedVariant`;
 * `listDownloadedModelVariants` gives each variant's own size and quantization. An older server
 * lists no variants: its entry is the one variant it has.
 *
 * @module
 */
import type { ModelInfo } from "./backend.ts";
import { variantQuantization } from "./lmstudio_rest_types.ts";

/** One camelCase model entry (the SDK's `ModelInfo`; the newer fields optional). */
export interface SdkModelEntry {
  type: "llm" | "embedding";
  modelKey: string;
  format: string;
  displayName: string;
  path: string;
  sizeBytes: number;
  paramsString?: string;
  architecture?: string;
  quantization?: { name: string; bits: number };
  vision?: boolean;
  trainedForToolUse?: boolean;
  maxContextLength: number;
  publisher?: string;
  variants?: string[];
  selectedVariant?: string;
}

/** The variant keys of an entry: its `variants`, or its own key when it lists none. */
export function variantKeysOf(e: SdkModelEntry): string[] {
  return e.variants?.length ? e.variants : [e.modelKey];
}

/**
 * Model entries of a camelCase model list, one per variant. `details` maps a model key to the
 * entries of its variants (from `listDownloadedModelVariants`); without them a variant other
 * than the selected one takes its quantization from its key and has no known size.
 */
export function modelsFromSdkEntries(
  entries: readonly SdkModelEntry[],
  details: ReadonlyMap<string, readonly SdkModelEntry[]> = new Map(),
): ModelInfo[] {
  return entries.flatMap((e) => {
    const keys = variantKeysOf(e);
    const known = details.get(e.modelKey) ?? [];
    return keys.map((key): ModelInfo => {
      const d = known.find((v) => v.modelKey === key);
      const selected = keys.length === 1 || key === e.selectedVariant;
      const own = d ?? (selected ? e : null);
      return {
        key,
        base_key: e.modelKey.replace(/@[^@]*$/, ""),
        display_name: d?.displayName ?? e.displayName,
        type: e.type,
        architecture: d?.architecture ?? e.architecture ?? null,
        quantization: own?.quantization?.name ?? variantQuantization(key),
        params_string: d?.paramsString ?? e.paramsString ?? null,
        size_bytes: own?.sizeBytes ?? null,
        max_context_length: d?.maxContextLength ?? e.maxContextLength ?? null,
        format: d?.format ?? e.format ?? null,
        capabilities: {
          vision: Boolean(d?.vision ?? e.vision),
          trained_for_tool_use: Boolean(d?.trainedForToolUse ?? e.trainedForToolUse),
        },
        loaded_instances: [],
      };
    });
  });
}

/**
 * The entries of a model list answered over the protocol, checked: an array of objects with a
 * model key and a type (an entry of another type, e.g. a future domain, is left out).
 *
 * @throws {Error} when the answer is not such a list
 */
export function sdkEntries(answer: unknown): SdkModelEntry[] {
  if (!Array.isArray(answer)) {
    throw new Error("the server's model list is not a list");
  }
  return answer.filter((e): e is SdkModelEntry =>
    typeof e === "object" && e !== null && typeof e.modelKey === "string" &&
    (e.type === "llm" || e.type === "embedding")
  ).map((e) => ({
    ...e,
    variants: Array.isArray(e.variants)
      ? e.variants.filter((v: unknown): v is string => typeof v === "string")
      : undefined,
  }));
}
