/**
 * Wire types of LM Studio's native REST API v1 (official field names, snake_case) and their
 * mapping onto the seed's names used by the benchmark.
 *
 * @module
 */

import type { ChatStats, DownloadStatus, ModelInfo } from "./backend.ts";

/** `quantization` of a REST model entry. */
export interface RestQuantization {
  name: string | null;
  bits_per_weight: number | null;
}

/** One loaded instance in a REST model entry. */
export interface RestLoadedInstance {
  id: string;
  config: Record<string, unknown>;
}

/** One entry of `GET /api/v1/models` (`list.md`). Unknown fields are tolerated. */
export interface RestModel {
  type: "llm" | "embedding";
  publisher: string;
  key: string;
  display_name: string;
  architecture?: string | null;
  quantization?: RestQuantization | null;
  size_bytes?: number | null;
  params_string?: string | null;
  loaded_instances?: RestLoadedInstance[];
  max_context_length?: number | null;
  format?: string | null;
  capabilities?: {
    vision: boolean;
    trained_for_tool_use: boolean;
    reasoning?: { allowed_options: string[]; default: string };
  };
  description?: string | null;
  variants?: string[];
  selected_variant?: string;
}

/** Body of `POST /api/v1/models/load`. */
export interface RestLoadResponse {
  type: "llm" | "embedding";
  instance_id: string;
  load_time_seconds: number;
  status: "loaded";
  load_config?: Record<string, unknown>;
}

/** `stats` of a chat result (official names, not the seed's). */
export interface RestChatStats {
  input_tokens: number;
  total_output_tokens: number;
  reasoning_output_tokens?: number;
  tokens_per_second?: number;
  time_to_first_token_seconds?: number;
  model_load_time_seconds?: number;
}

/** One output item of a chat result. */
export interface RestOutputItem {
  type: "message" | "reasoning" | "tool_call" | "invalid_tool_call";
  content?: string;
  [field: string]: unknown;
}

/** Non-stream chat body, and `chat.end.result`. */
export interface RestChatResult {
  model_instance_id: string;
  output: RestOutputItem[];
  stats: RestChatStats;
  response_id?: string;
}

/** Body of `download` and `download/status/:job_id`. */
export interface RestDownloadStatus {
  job_id?: string;
  status: "downloading" | "paused" | "completed" | "failed" | "already_downloaded";
  total_size_bytes?: number;
  downloaded_bytes?: number;
  bytes_per_second?: number;
  estimated_completion?: string;
  started_at?: string;
  completed_at?: string;
}

/** The part of a variant key after `@`, upper-cased (`q8_0` → `Q8_0`), or null. */
export function variantQuantization(key: string): string | null {
  const at = key.lastIndexOf("@");
  return at < 0 ? null : key.slice(at + 1).toUpperCase();
}

/**
 * Maps one REST entry to model entries: one per variant when the entry lists two or more
 * variants (the selected variant keeps the entry's quantization, size and loaded instances; the
 * others take their quantization from the key and have no known size), else one with the plain
 * model key.
 */
export function modelsFromRest(m: RestModel): ModelInfo[] {
  const base: ModelInfo = {
    key: m.key,
    base_key: m.key,
    display_name: m.display_name,
    type: m.type,
    architecture: m.architecture ?? null,
    quantization: m.quantization?.name ?? null,
    params_string: m.params_string ?? null,
    size_bytes: m.size_bytes ?? null,
    max_context_length: m.max_context_length ?? null,
    format: m.format ?? null,
    capabilities: {
      vision: m.capabilities?.vision ?? false,
      trained_for_tool_use: m.capabilities?.trained_for_tool_use ?? false,
    },
    loaded_instances: (m.loaded_instances ?? []).map((i) => i.id),
  };
  const variants = m.variants ?? [];
  if (variants.length <= 1) return [base];
  const selected = m.selected_variant ?? variants[0];
  return variants.map((v) =>
    v === selected ? { ...base, key: v } : {
      ...base,
      key: v,
      quantization: variantQuantization(v),
      size_bytes: null,
      loaded_instances: [],
    }
  );
}

/**
 * Maps official `chat.end` stats to the seed's names. `total_time_ms` is the server's view:
 * time to first token plus output tokens at the reported speed (the API reports no total).
 */
export function statsFromRest(s: RestChatStats): ChatStats {
  const ttft = s.time_to_first_token_seconds;
  const tps = s.tokens_per_second;
  const ttftMs = ttft === undefined ? null : ttft * 1000;
  const total = ttftMs !== null && tps !== undefined && tps > 0
    ? ttftMs + (s.total_output_tokens / tps) * 1000
    : null;
  return {
    tokens_in: s.input_tokens,
    tokens_out: s.total_output_tokens,
    time_to_first_token_ms: ttftMs,
    total_time_ms: total,
    tokens_per_second: tps ?? null,
    stop_reason: null,
    reasoning_tokens: s.reasoning_output_tokens ?? null,
    model_load_time_ms: s.model_load_time_seconds === undefined
      ? null
      : s.model_load_time_seconds * 1000,
  };
}

/** Maps a REST download body to the seed's status object. */
export function downloadFromRest(d: RestDownloadStatus): DownloadStatus {
  const total = d.total_size_bytes ?? null;
  const done = d.downloaded_bytes ?? null;
  const finished = d.status === "completed" || d.status === "already_downloaded";
  const progress = finished ? 1 : total !== null && total > 0 && done !== null ? done / total : 0;
  return {
    state: d.status,
    progress: Math.min(1, Math.max(0, progress)),
    job_id: d.job_id ?? null,
    total_size_bytes: total,
    downloaded_bytes: done,
  };
}
