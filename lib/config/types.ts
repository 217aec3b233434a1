/**
 * The configuration object of the benchmark and the web app (seed: "Configuration object").
 *
 * @module
 */

/** Which model-server client the benchmark uses. */
export type BackendKind = "sdk" | "rest" | "openai";

/** K/V cache quantization types a model server accepts. */
export const KV_CACHE_QUANTS = [
  "f32",
  "f16",
  "q8_0",
  "q4_0",
  "q4_1",
  "iq4_nl",
  "q5_0",
  "q5_1",
] as const;

/** One of {@linkcode KV_CACHE_QUANTS}. */
export type KvCacheQuant = typeof KV_CACHE_QUANTS[number];

/** `modelserver` section. */
export interface ModelServerConfig {
  host: string;
  /** The first port is the API port; the others are tried in order when it does not answer. */
  ports: number[];
  api_token: string | null;
  use_rest_api: boolean;
  /** Explicit backend; `null` means `rest` when `use_rest_api`, else `sdk`. */
  backend: BackendKind | null;
  /** Base URL of an OpenAI-compatible server (`openai` backend), e.g. `http://127.0.0.1:8080`. */
  base_url: string | null;
}

/** `inference` section: sampling values sent with every chat. */
export interface InferenceConfig {
  temperature: number;
  top_k_sampling: number;
  top_p_sampling: number;
  min_p_sampling: number;
  repeat_penalty: number;
  max_tokens: number;
}

/** `load` section: values used when a model is loaded. */
export interface LoadConfig {
  /** -1 = all layers on the GPU, 0 = CPU only. */
  n_gpu_layers: number;
  n_batch: number;
  /** -1 = the server's default. */
  n_threads: number;
  flash_attention: boolean;
  rope_freq_base: number | null;
  rope_freq_scale: number | null;
  use_mmap: boolean;
  use_mlock: boolean;
  /** K/V cache quantization type (e.g. `q8_0`), null = the server's default. */
  kv_cache_quant: KvCacheQuant | null;
}

/** The merged configuration: one object read by the benchmark and the web app. */
export interface Config {
  prompt: string;
  context_length: number;
  num_runs: number;
  modelserver: ModelServerConfig;
  inference: InferenceConfig;
  load: LoadConfig;
}

/** The backend a configuration selects. */
export function backendOf(config: Config): BackendKind {
  return config.modelserver.backend ?? (config.modelserver.use_rest_api ? "rest" : "sdk");
}
