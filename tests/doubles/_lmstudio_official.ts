/**
 * Official examples recorded in `reference/model-server-protocols.md` (LM Studio docs snapshot
 * c6854fb, `1_developer/2_rest/*`; third-party observations where marked). The contract tests
 * compare the doubles' payloads with these so the doubles cannot drift from the real API.
 *
 * @module
 */

/** `list.md`: one model entry. */
export const MODEL_ENTRY = {
  type: "llm",
  publisher: "google",
  key: "google/gemma-4-26b-a4b",
  display_name: "Gemma 4 26B A4B",
  architecture: "gemma4",
  quantization: { name: "Q4_K_M", bits_per_weight: 4 },
  size_bytes: 17990911801,
  params_string: "26B-A4B",
  loaded_instances: [{
    id: "google/gemma-4-26b-a4b",
    config: {
      context_length: 4096,
      eval_batch_size: 512,
      parallel: 4,
      flash_attention: true,
      num_experts: 8,
      offload_kv_cache_to_gpu: true,
    },
  }],
  max_context_length: 262144,
  format: "gguf",
  capabilities: {
    vision: true,
    trained_for_tool_use: true,
    reasoning: { allowed_options: ["off", "on"], default: "on" },
  },
  description: null,
  variants: ["google/gemma-4-26b-a4b@q4_k_m"],
  selected_variant: "google/gemma-4-26b-a4b@q4_k_m",
};

/** `load.md`: response (abridged in the docs) and an echoed `load_config`. */
export const LOAD_RESPONSE = {
  type: "llm",
  instance_id: "openai/gpt-oss-20b",
  load_time_seconds: 9.099,
  status: "loaded",
};
export const LOAD_CONFIG = {
  context_length: 16384,
  eval_batch_size: 512,
  flash_attention: true,
  offload_kv_cache_to_gpu: true,
  num_experts: 4,
};

/** `chat.md`: `stats` of a chat result. */
export const CHAT_STATS = {
  input_tokens: 329,
  total_output_tokens: 268,
  reasoning_output_tokens: 5,
  tokens_per_second: 43.73,
  time_to_first_token_seconds: 0.781,
};

/** `streaming-events.md`: an `error` event. */
export const ERROR_EVENT = {
  type: "error",
  error: {
    type: "invalid_request",
    message: '"model" is required',
    code: "missing_required_parameter",
    param: "model",
  },
};

/** Third-party observation (letta#1876): LM Studio's OpenAI-compatible 404 for an unknown model. */
export const OPENAI_NOT_FOUND = {
  error: {
    message: 'Model "x" not found',
    type: "invalid_request_error",
    param: "model",
    code: "model_not_found",
  },
};

/** Observed (ran): llama.cpp router error for an unknown model. */
export const LLAMACPP_NOT_FOUND = {
  error: { code: 400, message: "model 'nope' not found", type: "invalid_request_error" },
};

/** The documented `download` states. */
export const DOWNLOAD_STATES = [
  "downloading",
  "paused",
  "completed",
  "failed",
  "already_downloaded",
];
