/**
 * Benchmark targets: every model variant (`key@quant`) is its own target with its own size and
 * quantization.
 *
 * @module
 */
import type { Backend, ModelInfo } from "../modelserver/backend.ts";
import type { ModelRecord } from "../store/mod.ts";

/** One model variant to benchmark. */
export interface Target {
  /** What to load: the variant key, e.g. `org/model@q4_k_m`. */
  key: string;
  /** The model without the variant, e.g. `org/model`. */
  model_name: string;
  quantization: string | null;
  architecture: string | null;
  params_string: string | null;
  size_bytes: number | null;
  max_context_length: number | null;
  format: string | null;
  vision: boolean;
  tools: boolean;
}

/** The quantization of a variant key (`a@q4_k_m` → `q4_k_m`), or null. */
export function quantizationOfKey(key: string): string | null {
  const at = key.lastIndexOf("@");
  return at > 0 && at < key.length - 1 ? key.slice(at + 1) : null;
}

/** Turns a backend's model entry into a target (language models only; embeddings → null). */
export function targetOf(model: ModelInfo): Target | null {
  if (model.type !== "llm") return null;
  return {
    key: model.key,
    model_name: model.base_key || model.key.replace(/@[^@]*$/, ""),
    quantization: quantizationOfKey(model.key) ?? model.quantization?.toLowerCase() ?? null,
    architecture: model.architecture,
    params_string: model.params_string,
    size_bytes: model.size_bytes,
    max_context_length: model.max_context_length,
    format: model.format,
    vision: model.capabilities.vision,
    tools: model.capabilities.trained_for_tool_use,
  };
}

/** Size in GiB, or null. */
export function sizeGiB(t: Target): number | null {
  return t.size_bytes === null ? null : t.size_bytes / 1024 ** 3;
}

/** Billions of parameters parsed from `7B`, `26B-A4B`, `270M`; null when unparsable. */
export function paramsBillions(t: Target): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([BM])/i.exec(t.params_string ?? "");
  if (!m) return null;
  const n = Number(m[1]);
  return m[2]!.toUpperCase() === "M" ? n / 1000 : n;
}

/** The store's record of a target. */
export function modelRecordOf(t: Target): ModelRecord {
  return {
    model_key: t.key,
    model_name: t.model_name,
    quantization: t.quantization,
    architecture: t.architecture,
    params_size: t.params_string,
    size_bytes: t.size_bytes,
    max_context_length: t.max_context_length,
    format: t.format,
    has_vision: t.vision,
    has_tools: t.tools,
  };
}

/**
 * Fills what discovery did not know from the server's list after the load (llama.cpp reports a
 * model's size, parameters and file type only once it is loaded).
 */
export async function refreshTarget(backend: Backend, t: Target): Promise<Target> {
  if (t.size_bytes !== null && t.quantization !== null) return t;
  const fresh = (await backend.listModels()).find((m) => m.key === t.key);
  const f = fresh ? targetOf(fresh) : null;
  if (!f) return t;
  return {
    ...t,
    quantization: t.quantization ?? f.quantization,
    architecture: t.architecture ?? f.architecture,
    params_string: t.params_string ?? f.params_string,
    size_bytes: t.size_bytes ?? f.size_bytes,
    max_context_length: t.max_context_length ?? f.max_context_length,
    format: t.format ?? f.format,
  };
}
