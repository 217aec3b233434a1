/**
 * Arguments of the run itself: basic, presets, filters, cache and profiling.
 *
 * @module
 */
import type { FlagSpec } from "./flags.ts";

const f = (spec: FlagSpec): FlagSpec => spec;

/** Basic, Presets, Filter, Cache and Profiling arguments. */
export const RUN_FLAGS: readonly FlagSpec[] = [
  // Basic
  f({
    long: "runs",
    short: "r",
    key: "runs",
    kind: "int",
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
    arg: "GiB",
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
    long: "store",
    key: "store",
    kind: "string",
    category: "Cache",
    arg: "url",
    description:
      "the results store: a postgres://user:password@host:5432/db URL (sslmode=require honoured) or a SQLite file [default: $LOCALBENCH_STORE, store.url, <data dir>/results.db]",
  }),
  f({
    long: "store-copy-to",
    key: "store_copy_to",
    kind: "string",
    category: "Cache",
    arg: "url",
    description:
      "copy every result of the store into the PostgreSQL store at this URL (once: results copied before are skipped), then exit",
  }),
  f({
    long: "export-only",
    key: "export_only",
    kind: "bool",
    category: "Cache",
    description: "write reports from the cache without benchmarking (filters apply)",
  }),
  f({
    long: "import",
    key: "import",
    kind: "string",
    category: "Cache",
    arg: "file",
    description:
      "store the results of a llama-bench -o json/-o jsonl or vllm bench serve --save-result file beside localbench's own, then exit (a record stored before is skipped)",
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
];
