/**
 * Model entries of OpenAI-compatible servers, with what llama.cpp adds: the router's per-model
 * `status` and, for loaded models, `meta` (size, parameter count, training context, file type).
 *
 * @module
 */
import type { ModelInfo } from "./backend.ts";
import type { GgufModelInfo } from "./gguf_header.ts";

/** One `GET /v1/models` entry (llama.cpp fields optional). */
export interface OpenAiModel {
  id: string;
  /** llama.cpp router: the model's state and the command line of its server. */
  status?: { value?: string; args?: string[] };
  meta?: {
    n_params?: number;
    size?: number;
    n_ctx_train?: number;
    ftype?: string;
  };
}

/** `4196672` → `4.2M`, `7241732096` → `7.2B`. */
export function paramsText(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  return `${Math.round(n / 1e3)}K`;
}

/** The file type of llama.cpp's `ftype` text (`"(guessed) all F32"` → `F32`, `"Q4_K - Medium"` → `Q4_K_M`). */
export function quantizationOfFtype(ftype: string | undefined): string | null {
  if (!ftype) return null;
  const text = ftype.replace(/^\(guessed\)\s*/, "").replace(/^all\s+/i, "").trim();
  const m = /^([A-Z0-9_]+?)(?:\s*-\s*(Small|Medium|Large|Extra Large))?$/i.exec(text);
  if (!m) return text || null;
  const size = m[2] ? `_${m[2] === "Extra Large" ? "XL" : m[2][0]!.toUpperCase()}` : "";
  return `${m[1]!.toUpperCase()}${size}`;
}

/**
 * Maps an entry to the benchmark's model info; `gguf` (the header of the model's file, read when the
 * server is local) gives architecture, parameters, context and file type before any load.
 */
export function modelFromOpenAi(
  m: OpenAiModel,
  gguf: (GgufModelInfo & { size_bytes: number }) | null = null,
): ModelInfo {
  const meta = m.meta ?? {};
  const params = typeof meta.n_params === "number" ? meta.n_params : gguf?.params;
  return {
    key: m.id,
    base_key: m.id,
    display_name: m.id,
    type: /embed/i.test(m.id) ? "embedding" : "llm",
    architecture: gguf?.architecture ?? null,
    quantization: quantizationOfFtype(meta.ftype) ?? gguf?.quantization ?? null,
    params_string: gguf?.size_label ?? (params !== undefined ? paramsText(params) : null),
    size_bytes: gguf?.size_bytes ?? (typeof meta.size === "number" ? meta.size : null),
    max_context_length: typeof meta.n_ctx_train === "number"
      ? meta.n_ctx_train
      : gguf?.context_length ?? null,
    format: meta.ftype || gguf ? "gguf" : null,
    capabilities: { vision: false, trained_for_tool_use: false },
    loaded_instances: m.status?.value === "loaded" ? [m.id] : [],
  };
}
