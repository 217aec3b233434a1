/**
 * The one interface the benchmark uses to talk to a model server, whatever the protocol:
 * LM Studio REST v1, the LM Studio SDK (WebSocket) or an OpenAI-compatible server.
 *
 * All names are the seed's (snake_case): each backend maps its own wire names onto them.
 *
 * @module
 */
import type { LoadConfig } from "../config/mod.ts";

/** Which protocol a backend speaks. */
export type BackendKind = "rest" | "sdk" | "openai";

/** Capabilities of a model (seed: "Model list entry"). */
export interface ModelCapabilities {
  /** The model accepts images. */
  vision: boolean;
  /** The model was trained for tool use. */
  trained_for_tool_use: boolean;
}

/** One installed model, or one quantization variant of it. */
export interface ModelInfo {
  /** What to load by: the variant key (`publisher/model@q4_k_m`) when variants exist, else the model key. */
  key: string;
  /** The model key without variant suffix. */
  base_key: string;
  /** Human-readable name. */
  display_name: string;
  /** `llm` or `embedding`. */
  type: "llm" | "embedding";
  /** Architecture (e.g. `gemma4`), null when unknown. */
  architecture: string | null;
  /** Quantization name (e.g. `Q4_K_M`), null when unknown. */
  quantization: string | null;
  /** Parameter count as text (e.g. `26B-A4B`), null when unknown. */
  params_string: string | null;
  /** Size on disk, null when unknown. */
  size_bytes: number | null;
  /** Largest context the model supports, null when unknown. */
  max_context_length: number | null;
  /** `gguf`, `mlx`, ... or null. */
  format: string | null;
  /** Vision and tool-use flags (both false for embedding models). */
  capabilities: ModelCapabilities;
  /** Identifiers of the loaded instances of this model. */
  loaded_instances: string[];
}

/**
 * Load configuration (the seed's `load` section plus context and parallelism).
 *
 * Each backend maps what its API accepts and documents what it cannot set.
 */
export interface LoadOptions extends LoadConfig {
  context_length: number;
  /** Parallel slots (LM Studio ≥ 0.4.0). */
  n_parallel?: number;
  /** Unified KV cache across slots (LM Studio ≥ 0.4.0). */
  unified_kv_cache?: boolean;
  /** Cancels the load. */
  signal?: AbortSignal;
}

/** One chat message. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** One streamed inference. */
export interface ChatRequest {
  /** Instance id or model key. */
  model: string;
  messages: ChatMessage[];
  temperature: number;
  top_k: number;
  top_p: number;
  min_p: number;
  repeat_penalty: number;
  max_tokens: number;
  /** Aborts the request. */
  signal?: AbortSignal;
  /** Called for every generated text delta with the client time (ms since the request started). */
  onToken?: (delta: string, tMs: number) => void;
  /** Ask the server not to reuse its prompt cache where it can (llama.cpp `cache_prompt:false`). */
  noCache?: boolean;
  /**
   * Generate exactly `max_tokens` tokens (no stop at the end-of-sequence token) where the server
   * can (see {@linkcode Backend.outputControl}); elsewhere `max_tokens` stays a maximum.
   */
  exact_output?: boolean;
}

/** Server-reported statistics of one inference, in the seed's names. */
export interface ChatStats {
  tokens_in: number;
  tokens_out: number;
  time_to_first_token_ms: number | null;
  total_time_ms: number | null;
  tokens_per_second: number | null;
  stop_reason?: string | null;
  reasoning_tokens?: number | null;
  model_load_time_ms?: number | null;
  /** Prompt processing time (llama.cpp `timings.prompt_ms`). */
  prompt_ms?: number | null;
  /** Generation time (llama.cpp `timings.predicted_ms`). */
  predicted_ms?: number | null;
  /** Prompt tokens the server took from its prompt cache (llama.cpp `timings.cache_n`). */
  cached_tokens?: number | null;
}

/** Figures measured by the client with `performance.now()`. */
export interface ClientTimings {
  /** Time to the first event carrying a token (its text may be empty), null when none came. */
  ttft_ms: number | null;
  /** Time of the last event carrying a token; absent when a backend does not report it. */
  last_token_ms?: number | null;
  /** Events carrying tokens that arrived in the same network read as the first one. */
  first_read_tokens?: number;
  /** Time until the stream ended. */
  total_ms: number;
  /** Count of the events carrying tokens. */
  tokens_out: number | null;
  /** Client time of every event carrying a token, in order (the inter-token gaps). */
  token_times_ms?: number[];
}

/** The result of {@linkcode Backend.chat}. */
export interface ChatResult {
  /** The generated text. */
  text: string;
  /** Server-reported figures (seed names). */
  stats: ChatStats;
  /** Client-measured figures. */
  client: ClientTimings;
  /** `response_id` from `chat.end` (REST with `store`), else null. */
  response_id: string | null;
}

/** Status of a model download (seed: "Download status"). */
export interface DownloadStatus {
  /** `downloading`, `paused`, `completed`, `failed` or `already_downloaded`. */
  state: string;
  /** Fraction from 0 to 1. */
  progress: number;
  /** Job id when the server started a job. */
  job_id: string | null;
  total_size_bytes: number | null;
  downloaded_bytes: number | null;
}

/** Options of {@linkcode Backend.download}. */
export interface DownloadOptions {
  /** Quantization to download. */
  quantization?: string;
  /** Poll until the job ends. @default false */
  wait?: boolean;
  /** Called with every polled status. */
  onProgress?: (status: DownloadStatus) => void;
  /** Poll interval. @default 2000 */
  poll_interval_ms?: number;
  /** Give up waiting after this long. @default 3_600_000 */
  timeout_ms?: number;
  signal?: AbortSignal;
}

/** What a load returns. */
export interface LoadResult {
  instance_id: string;
  load_time_ms: number | null;
}

/**
 * Load values a server reports for a loaded model (read back after the load), in the benchmark's
 * names; a value the server does not report is absent.
 */
export interface ServerConfig {
  context_length?: number;
  n_batch?: number;
  n_threads?: number;
  n_gpu_layers?: number;
  flash_attention?: boolean;
  kv_cache_quant?: string;
  use_mmap?: boolean;
  use_mlock?: boolean;
  rope_freq_base?: number;
  rope_freq_scale?: number;
  /** Requests the server runs at once for this model (slots). */
  parallel?: number;
  /** Per-slot context (llama.cpp), when it differs from the whole context. */
  context_per_slot?: number;
  /** Where the server reads this from, for reports (e.g. `/props`, `load_config`). */
  source?: string;
}

/** A model server, seen by the benchmark. */
export interface Backend {
  readonly kind: BackendKind;
  /** A human description, e.g. `LM Studio REST at http://127.0.0.1:1234`. */
  describe(): string;
  /** Server version (`0.4.1`), null when the server does not say. */
  version(): Promise<string | null>;
  /** Installed models with capabilities. */
  listModels(): Promise<ModelInfo[]>;
  /** Loads a model with a configuration. */
  load(key: string, opts: LoadOptions): Promise<LoadResult>;
  /** Unloads one instance. */
  unload(instanceId: string): Promise<void>;
  /** Streams one inference. */
  chat(req: ChatRequest): Promise<ChatResult>;
  /**
   * How the server's output length can be controlled: `exact` when it can be told to ignore the
   * end-of-sequence token (llama.cpp `ignore_eos`), else `max` (max_tokens is only a maximum).
   */
  outputControl?(): Promise<"exact" | "max">;
  /**
   * The exact number of prompt tokens the server processes for these messages (its chat template
   * and tokenizer: llama.cpp `/apply-template` + `/tokenize`, the SDK's `applyPromptTemplate` +
   * `countTokens`); null when the server offers no tokenizer.
   */
  promptTokens?(model: string, messages: ChatMessage[]): Promise<number | null>;
  /**
   * An identity of the model's current load (it changes when the server loads the model again,
   * e.g. llama.cpp's router respawning a killed model server on another port); null when the
   * server does not tell.
   */
  loadMarker?(key: string, instanceId: string): Promise<string | null>;
  /** The load values the server reports for a loaded model, null when it reports none. */
  serverConfig?(key: string, instanceId: string): Promise<ServerConfig | null>;
  /** Downloads a model (LM Studio REST only). */
  download?(key: string, opts?: DownloadOptions): Promise<DownloadStatus>;
  /** Releases sockets. */
  close(): Promise<void>;
}

/** Whether a model accepts images. */
export function isVisionCapable(model: Pick<ModelInfo, "capabilities">): boolean {
  return model.capabilities.vision;
}

/** Whether a model was trained for tool use. */
export function isToolCapable(model: Pick<ModelInfo, "capabilities">): boolean {
  return model.capabilities.trained_for_tool_use;
}
