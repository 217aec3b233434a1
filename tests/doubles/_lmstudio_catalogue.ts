/**
 * The LM Studio doubles' model catalogue: what is installed, what can be downloaded, and the
 * per-variant speed that makes models benchmark differently. Shapes follow the official examples.
 *
 * @module
 */

/** One quantization of a model. */
export interface VariantSpec {
  /** Suffix after `@` in the variant key, e.g. `q4_k_m`. */
  quant: string;
  /** Quantization name as LM Studio shows it, e.g. `Q4_K_M`. */
  name: string;
  bits: number;
  size_bytes: number;
  /** Nominal generation speed of this variant (tokens/s). */
  speed_tps: number;
}

/** One model of the catalogue. */
export interface CatalogueModel {
  type: "llm" | "embedding";
  publisher: string;
  /** Model key (without `@variant`). */
  key: string;
  display_name: string;
  architecture: string | null;
  params_string: string | null;
  max_context_length: number;
  format: "gguf" | "mlx";
  vision: boolean;
  trained_for_tool_use: boolean;
  reasoning: boolean;
  /** First entry is the selected variant. */
  variants: VariantSpec[];
  /** Prompt processing speed (tokens/s). */
  prefill_tps: number;
  /** Simulated load time (seconds). */
  load_seconds: number;
  /** False for models only available through a download. */
  downloaded: boolean;
}

/** The variant key of a variant. */
export function variantKey(m: CatalogueModel, v: VariantSpec): string {
  return `${m.key}@${v.quant}`;
}

/**
 * The default catalogue: five LLMs (one with vision, one trained for tool use, two quantizations
 * of one model, one reasoning model), one embedding model, and one model only available to download.
 */
export function defaultCatalogue(): CatalogueModel[] {
  return [
    {
      type: "llm",
      publisher: "google",
      key: "google/gemma-4-26b-a4b",
      display_name: "Gemma 4 26B A4B",
      architecture: "gemma4",
      params_string: "26B-A4B",
      max_context_length: 262144,
      format: "gguf",
      vision: true,
      trained_for_tool_use: true,
      reasoning: true,
      variants: [{
        quant: "q4_k_m",
        name: "Q4_K_M",
        bits: 4,
        size_bytes: 17990911801,
        speed_tps: 43.7,
      }],
      prefill_tps: 420,
      load_seconds: 9.1,
      downloaded: true,
    },
    {
      type: "llm",
      publisher: "qwen",
      key: "qwen/qwen3-4b",
      display_name: "Qwen3 4B",
      architecture: "qwen3",
      params_string: "4B",
      max_context_length: 32768,
      format: "gguf",
      vision: false,
      trained_for_tool_use: true,
      reasoning: false,
      variants: [
        { quant: "q4_k_m", name: "Q4_K_M", bits: 4, size_bytes: 2497280960, speed_tps: 88.2 },
        { quant: "q8_0", name: "Q8_0", bits: 8, size_bytes: 4280405696, speed_tps: 61.5 },
      ],
      prefill_tps: 1350,
      load_seconds: 2.4,
      downloaded: true,
    },
    {
      type: "llm",
      publisher: "mistralai",
      key: "mistralai/ministral-3-3b",
      display_name: "Ministral 3 3B",
      architecture: "mistral3",
      params_string: "3B",
      max_context_length: 131072,
      format: "gguf",
      vision: true,
      trained_for_tool_use: false,
      reasoning: false,
      variants: [{
        quant: "q4_k_m",
        name: "Q4_K_M",
        bits: 4,
        size_bytes: 2150000000,
        speed_tps: 102.4,
      }],
      prefill_tps: 1600,
      load_seconds: 1.9,
      downloaded: true,
    },
    {
      type: "llm",
      publisher: "deepseek",
      key: "deepseek/deepseek-r1-0528-qwen3-8b",
      display_name: "DeepSeek R1 0528 Qwen3 8B",
      architecture: "qwen3",
      params_string: "8B",
      max_context_length: 131072,
      format: "gguf",
      vision: false,
      trained_for_tool_use: false,
      reasoning: true,
      variants: [{
        quant: "q4_k_m",
        name: "Q4_K_M",
        bits: 4,
        size_bytes: 5027784800,
        speed_tps: 38.9,
      }],
      prefill_tps: 700,
      load_seconds: 4.2,
      downloaded: true,
    },
    {
      type: "embedding",
      publisher: "nomic-ai",
      key: "text-embedding-nomic-embed-text-v1.5",
      display_name: "Nomic Embed Text v1.5",
      architecture: null,
      params_string: null,
      max_context_length: 2048,
      format: "gguf",
      vision: false,
      trained_for_tool_use: false,
      reasoning: false,
      variants: [{ quant: "q4_k_m", name: "Q4_K_M", bits: 4, size_bytes: 84106624, speed_tps: 0 }],
      prefill_tps: 5000,
      load_seconds: 0.4,
      downloaded: true,
    },
    {
      type: "llm",
      publisher: "qwen",
      key: "qwen/qwen3-0.6b",
      display_name: "Qwen3 0.6B",
      architecture: "qwen3",
      params_string: "0.6B",
      max_context_length: 32768,
      format: "gguf",
      vision: false,
      trained_for_tool_use: true,
      reasoning: false,
      variants: [{ quant: "q8_0", name: "Q8_0", bits: 8, size_bytes: 639447744, speed_tps: 210 }],
      prefill_tps: 4000,
      load_seconds: 0.6,
      downloaded: false,
    },
  ];
}
