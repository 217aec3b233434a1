/**
 * Discovery: the model list from `lms ls --json` (SDK mode, when `lms` is installed) or from the
 * backend's own list (`GET /api/v1/models`, `/v1/models`, the SDK). Every variant is a target.
 *
 * @module
 */
import type { Backend, ModelInfo } from "../modelserver/backend.ts";
import type { LmsCli, LmsModelEntry } from "../modelserver/lms_cli.ts";
import { quantizationOfKey, type Target, targetOf } from "./target.ts";

/** Turns `lms ls --json` entries into model entries, one per variant. */
export function modelsFromLms(entries: LmsModelEntry[]): ModelInfo[] {
  return entries.flatMap((e) => {
    const keys = e.variants?.length ? e.variants : [e.modelKey];
    return keys.map((key): ModelInfo => {
      const selected = keys.length === 1 || key === e.selectedVariant;
      return {
        key,
        base_key: e.modelKey.replace(/@[^@]*$/, ""),
        display_name: e.displayName,
        type: e.type,
        architecture: e.architecture ?? null,
        quantization: quantizationOfKey(key) ?? e.quantization?.name ?? null,
        params_string: e.paramsString ?? null,
        size_bytes: selected ? e.sizeBytes : null,
        max_context_length: e.maxContextLength ?? null,
        format: e.format ?? null,
        capabilities: {
          vision: Boolean(e.vision),
          trained_for_tool_use: Boolean(e.trainedForToolUse),
        },
        loaded_instances: [],
      };
    });
  });
}

/** Lists the language-model targets. */
export async function discoverTargets(backend: Backend, lms: LmsCli | null): Promise<Target[]> {
  const models = backend.kind === "sdk" && lms
    ? modelsFromLms(await lms.ls())
    : await backend.listModels();
  const seen = new Set<string>();
  const targets: Target[] = [];
  for (const m of models) {
    const t = targetOf(m);
    if (t && !seen.has(t.key)) {
      seen.add(t.key);
      targets.push(t);
    }
  }
  return targets;
}
