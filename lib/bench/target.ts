/**
 * Benchmark targets: every model variant (`key@quant`) is its own target with its own size and
 * quantization, and one identity whatever the backend that found it.
 *
 * @module
 */
import type { Backend, BackendKind, ModelInfo } from "../modelserver/mod.ts";
import type { ModelRecord } from "../store/mod.ts";

/** One model variant to benchmark. */
export interface Target {
  /** The variant's identity, e.g. `org/model@q4_k_m` (see {@linkcode variantIdentity}). */
  key: string;
  /** What the server loads it by, when that is not `key` (an entry listing no variants). */
  load_key?: string;
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

/**
 * The identity of an LM Studio model variant: `publisher/model@quant`. LM Studio names one
 * variant in several ways (REST lists the variant keys, the SDK and `lms ls` the model key with
 * the selected variant's quantization, a model with one variant may list none), so a key
 * without `@` gains the quantization when it is known; a key with one is kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { variantIdentity } from "./target.ts";
 * assert.equal(variantIdentity("qwen/qwen3-4b", "Q4_K_M"), "qwen/qwen3-4b@q4_k_m");
 * assert.equal(variantIdentity("qwen/qwen3-4b@q8_0", "Q8_0"), "qwen/qwen3-4b@q8_0");
 * ```
 */
export function variantIdentity(key: string, quantization: string | null): string {
  if (quantizationOfKey(key) !== null || !quantization) return key;
  return `${key}@${quantization.toLowerCase()}`;
}

/**
 * Turns a backend's model entry into a target (language models only; embeddings → null). The
 * LM Studio backends (`sdk`, `rest`) name it by {@linkcode variantIdentity}; an
 * OpenAI-compatible server's model id already names one file (its quantization may only be
 * known once it is loaded), so it is kept as the server gives it.
 */
export function targetOf(model: ModelInfo, kind: BackendKind): Target | null {
  if (model.type !== "llm") return null;
  const quantization = quantizationOfKey(model.key) ?? model.quantization?.toLowerCase() ?? null;
  const key = kind === "openai" ? model.key : variantIdentity(model.key, quantization);
  return {
    key,
    ...(key === model.key ? {} : { load_key: model.key }),
    model_name: model.base_key || model.key.replace(/@[^@]*$/, ""),
    quantization,
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
  const loadKey = t.load_key ?? t.key;
  const fresh = (await backend.listModels()).find((m) => m.key === loadKey);
  const f = fresh ? targetOf(fresh, backend.kind) : null;
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
