/**
 * The benchmark's command-line arguments as one table: the 49 of the seed (45 named there plus
 * `--debug`, `--no-flash-attention`, `--no-mmap` and `--help`) and our additions (`--backend`,
 * `--base-url`, `--print-config`). The parser and the help text are generated from it.
 *
 * @module
 */
import { KV_CACHE_QUANTS } from "../config/mod.ts";

/** Value kinds. */
export type FlagKind = "bool" | "int" | "float" | "string" | "list" | "choice" | "regex" | "url";

/** Help categories, in the seed's order. */
export const CATEGORIES = [
  "Basic",
  "Presets",
  "Filter",
  "Cache",
  "Profiling",
  "Inference",
  "Load",
  "REST",
  "Comparison",
  "Backend",
  "Other",
] as const;

/** One argument. */
export interface FlagSpec {
  /** Long name without dashes, e.g. `runs`, `no-mmap`. */
  long: string;
  short?: string;
  /** Key in the parsed flags (snake_case); `--no-mmap` writes `use_mmap = false`. */
  key: string;
  kind: FlagKind;
  category: typeof CATEGORIES[number];
  description: string;
  /** For `bool`: the value written when the flag is given. @default true */
  value?: boolean;
  /** Name of the value in the help (`<n>`). */
  arg?: string;
  min?: number;
  max?: number;
  /** Minimum is exclusive (e.g. sizes > 0). */
  exclusiveMin?: boolean;
  choices?: readonly string[];
  /** Default shown in help when no configuration value applies. */
  fallback?: string | number | boolean;
  /** Where the configuration holds this value (dotted path), shown as the help default. */
  config?: string;
  /** Extra spellings accepted (rewritten before parsing). */
  aliases?: string[];
}

const f = (spec: FlagSpec): FlagSpec => spec;

/** Every argument. */
export const FLAGS: readonly FlagSpec[] = [
  // Basic
  f({
    long: "runs",
    short: "r",
    key: "runs",
    kind: "int",
    min: 1,
    category: "Basic",
    arg: "n",
    config: "num_runs",
    description: "measured runs per model",
  }),
  f({
    long: "context",
    short: "c",
    key: "context",
    kind: "int",
    min: 1,
    category: "Basic",
    arg: "tokens",
    config: "context_length",
    description: "context length used to load each model",
  }),
  f({
    long: "prompt",
    short: "P",
    key: "prompt",
    kind: "string",
    category: "Basic",
    arg: "text",
    config: "prompt",
    description: "the prompt of every run",
  }),
  f({
    long: "limit",
    short: "l",
    key: "limit",
    kind: "int",
    min: 1,
    category: "Basic",
    arg: "n",
    description: "benchmark at most n models (not counting cached ones)",
  }),
  f({
    long: "dev-mode",
    key: "dev_mode",
    kind: "bool",
    category: "Basic",
    description: "quick check: only the smallest model, one run",
  }),
  // Presets
  f({
    long: "list-presets",
    key: "list_presets",
    kind: "bool",
    category: "Presets",
    description: "list the presets and exit",
  }),
  f({
    long: "preset",
    short: "p",
    key: "preset",
    kind: "string",
    category: "Presets",
    arg: "name",
    description: "start from a preset; arguments given explicitly win",
  }),
  // Filter
  f({
    long: "only-vision",
    key: "only_vision",
    kind: "bool",
    category: "Filter",
    description: "only models with vision",
  }),
  f({
    long: "only-tools",
    key: "only_tools",
    kind: "bool",
    category: "Filter",
    description: "only models trained for tool use",
  }),
  f({
    long: "quants",
    key: "quants",
    kind: "list",
    category: "Filter",
    arg: "list",
    description: "quantizations to keep, comma-separated (e.g. q4_k_m,q8_0)",
  }),
  f({
    long: "arch",
    key: "arch",
    kind: "list",
    category: "Filter",
    arg: "list",
    description: "architectures to keep, comma-separated (e.g. llama,qwen3)",
  }),
  f({
    long: "params",
    key: "params",
    kind: "list",
    category: "Filter",
    arg: "list",
    description: "parameter sizes to keep, comma-separated (e.g. 7B,4B)",
  }),
  f({
    long: "min-context",
    key: "min_context",
    kind: "int",
    min: 1,
    category: "Filter",
    arg: "tokens",
    description: "only models whose maximum context is at least this",
  }),
  f({
    long: "max-size",
    key: "max_size",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Filter",
    arg: "GB",
    description: "only models of at most this size (GiB)",
  }),
  f({
    long: "include-models",
    key: "include_models",
    kind: "regex",
    category: "Filter",
    arg: "regex",
    description: "only model keys matching this regular expression (case-insensitive)",
  }),
  f({
    long: "exclude-models",
    key: "exclude_models",
    kind: "regex",
    category: "Filter",
    arg: "regex",
    description: "leave out model keys matching this regular expression",
  }),
  // Cache
  f({
    long: "retest",
    key: "retest",
    kind: "bool",
    category: "Cache",
    description: "measure cached models again (history is kept)",
  }),
  f({
    long: "list-cache",
    key: "list_cache",
    kind: "bool",
    category: "Cache",
    description: "print the cached results and exit",
  }),
  f({
    long: "export-cache",
    key: "export_cache",
    kind: "string",
    category: "Cache",
    arg: "file",
    description:
      "write the cached results as JSON and exit (a bare name goes to the results folder)",
  }),
  f({
    long: "export-only",
    key: "export_only",
    kind: "bool",
    category: "Cache",
    description: "write reports from the cache without benchmarking (filters apply)",
  }),
  // Profiling
  f({
    long: "enable-profiling",
    key: "enable_profiling",
    kind: "bool",
    category: "Profiling",
    description: "sample GPU, CPU and RAM during the measured runs",
  }),
  f({
    long: "max-temp",
    key: "max_temp",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Profiling",
    arg: "celsius",
    description: "with profiling: wait before the next run until the GPU is below this",
  }),
  f({
    long: "max-power",
    key: "max_power",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Profiling",
    arg: "watts",
    description: "with profiling: wait before the next run until GPU power is below this",
  }),
  f({
    long: "disable-gtt",
    key: "disable_gtt",
    kind: "bool",
    category: "Profiling",
    description: "AMD: leave shared GTT memory out of the samples",
  }),
  // Inference
  f({
    long: "temperature",
    key: "temperature",
    kind: "float",
    min: 0,
    max: 2,
    category: "Inference",
    arg: "t",
    config: "inference.temperature",
    description: "sampling temperature",
  }),
  f({
    long: "top-k",
    key: "top_k",
    kind: "int",
    min: 0,
    category: "Inference",
    arg: "k",
    config: "inference.top_k_sampling",
    aliases: ["top-k-sampling"],
    description: "top-k sampling (alias --top-k-sampling)",
  }),
  f({
    long: "top-p",
    key: "top_p",
    kind: "float",
    min: 0,
    max: 1,
    category: "Inference",
    arg: "p",
    config: "inference.top_p_sampling",
    aliases: ["top-p-sampling"],
    description: "top-p sampling (alias --top-p-sampling)",
  }),
  f({
    long: "min-p",
    key: "min_p",
    kind: "float",
    min: 0,
    max: 1,
    category: "Inference",
    arg: "p",
    config: "inference.min_p_sampling",
    aliases: ["min-p-sampling"],
    description: "min-p sampling (alias --min-p-sampling)",
  }),
  f({
    long: "repeat-penalty",
    key: "repeat_penalty",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Inference",
    arg: "x",
    config: "inference.repeat_penalty",
    description: "repeat penalty",
  }),
  f({
    long: "max-tokens",
    key: "max_tokens",
    kind: "int",
    min: 1,
    category: "Inference",
    arg: "n",
    config: "inference.max_tokens",
    description: "maximum tokens generated per run",
  }),
  // Load
  f({
    long: "n-gpu-layers",
    key: "n_gpu_layers",
    kind: "int",
    min: -1,
    category: "Load",
    arg: "n",
    config: "load.n_gpu_layers",
    description: "layers offloaded to the GPU (-1 all, 0 none)",
  }),
  f({
    long: "n-batch",
    key: "n_batch",
    kind: "int",
    min: 1,
    category: "Load",
    arg: "n",
    config: "load.n_batch",
    description: "evaluation batch size",
  }),
  f({
    long: "n-threads",
    key: "n_threads",
    kind: "int",
    min: -1,
    category: "Load",
    arg: "n",
    config: "load.n_threads",
    description: "CPU threads (-1 automatic)",
  }),
  f({
    long: "flash-attention",
    key: "flash_attention",
    kind: "bool",
    category: "Load",
    config: "load.flash_attention",
    description: "use flash attention",
  }),
  f({
    long: "no-flash-attention",
    key: "flash_attention",
    kind: "bool",
    value: false,
    category: "Load",
    description: "do not use flash attention",
  }),
  f({
    long: "rope-freq-base",
    key: "rope_freq_base",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Load",
    arg: "x",
    config: "load.rope_freq_base",
    description: "RoPE frequency base",
  }),
  f({
    long: "rope-freq-scale",
    key: "rope_freq_scale",
    kind: "float",
    min: 0,
    exclusiveMin: true,
    category: "Load",
    arg: "x",
    config: "load.rope_freq_scale",
    description: "RoPE frequency scale",
  }),
  f({
    long: "use-mmap",
    key: "use_mmap",
    kind: "bool",
    category: "Load",
    config: "load.use_mmap",
    description: "memory-map the model file",
  }),
  f({
    long: "no-mmap",
    key: "use_mmap",
    kind: "bool",
    value: false,
    category: "Load",
    description: "do not memory-map the model file",
  }),
  f({
    long: "use-mlock",
    key: "use_mlock",
    kind: "bool",
    category: "Load",
    config: "load.use_mlock",
    description: "lock the model in RAM",
  }),
  f({
    long: "kv-cache-quant",
    key: "kv_cache_quant",
    kind: "choice",
    choices: KV_CACHE_QUANTS,
    category: "Load",
    arg: "type",
    config: "load.kv_cache_quant",
    description: "K/V cache quantization",
  }),
  // REST
  f({
    long: "use-rest-api",
    key: "use_rest_api",
    kind: "bool",
    category: "REST",
    config: "modelserver.use_rest_api",
    description: "use the model server's REST v1 API (same as --backend rest)",
  }),
  f({
    long: "api-token",
    key: "api_token",
    kind: "string",
    category: "REST",
    arg: "token",
    description: "bearer token for the REST API (or modelserver.api_token)",
  }),
  f({
    long: "n-parallel",
    key: "n_parallel",
    kind: "int",
    min: 1,
    category: "REST",
    arg: "n",
    fallback: 4,
    description: "concurrent requests per measured round (REST/OpenAI; needs server 0.4.0+)",
  }),
  f({
    long: "unified-kv-cache",
    key: "unified_kv_cache",
    kind: "bool",
    category: "REST",
    description: "one K/V cache shared by parallel requests",
  }),
  // Comparison
  f({
    long: "compare-with",
    key: "compare_with",
    kind: "string",
    category: "Comparison",
    arg: "report",
    description: "compare with an earlier JSON report: latest, a file name or an id",
  }),
  f({
    long: "rank-by",
    key: "rank_by",
    kind: "choice",
    choices: ["speed", "efficiency", "ttft", "vram"],
    category: "Comparison",
    arg: "metric",
    fallback: "speed",
    description: "order of the PDF report's table",
  }),
  // Backend (our additions)
  f({
    long: "backend",
    key: "backend",
    kind: "choice",
    choices: ["sdk", "rest", "openai"],
    category: "Backend",
    arg: "kind",
    config: "modelserver.backend",
    description:
      "model-server client: sdk (LM Studio SDK), rest (LM Studio REST v1), openai (any OpenAI-compatible server)",
  }),
  f({
    long: "base-url",
    key: "base_url",
    kind: "url",
    category: "Backend",
    arg: "url",
    config: "modelserver.base_url",
    description: "server URL, e.g. http://127.0.0.1:8080 (default http://<host>:<first port>)",
  }),
  // Other
  f({
    long: "print-config",
    key: "print_config",
    kind: "bool",
    category: "Other",
    description: "print the merged configuration as JSON and exit",
  }),
  f({
    long: "debug",
    short: "d",
    key: "debug",
    kind: "bool",
    category: "Other",
    description: "verbose logging",
  }),
];

/** The flags of the seed's 49 (everything but our additions), `--help` included. */
export const SEED_FLAG_COUNT =
  FLAGS.filter((s) => !["backend", "base-url", "print-config"].includes(s.long)).length + 1;
