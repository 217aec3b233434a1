/**
 * What a benchmark run is asked to do besides its configuration: the action, the model filters,
 * the controlled workload and every other run option, and a resolved run (configuration,
 * options, layers, paths). The command line builds them from its flags (`lib/cli/options.ts`),
 * the dashboard from its form; the benchmark and the reports read them.
 *
 * @module
 */
import type { Config, LayerReport, Paths } from "../config/mod.ts";

/** Model filters. */
export interface FilterOptions {
  only_vision: boolean;
  only_tools: boolean;
  quants: string[];
  arch: string[];
  params: string[];
  min_context: number | null;
  /** GiB. */
  max_size: number | null;
  include_models: string | null;
  exclude_models: string | null;
}

/** What to do. */
export type Action =
  | "benchmark"
  | "list-presets"
  | "print-config"
  | "list-cache"
  | "export-cache"
  | "import"
  | "store-copy"
  | "export-only"
  | "list-models";

/** Controlled workload and load curve (`--prompt-tokens`, `--concurrency`, ...). */
export interface WorkloadOptions {
  /** Exact prompt lengths in tokens; empty: the configured prompt as it is. */
  prompt_tokens: number[];
  /** Output lengths in tokens; empty: up to `max_tokens`, as the model chooses. */
  gen_tokens: number[];
  /** Concurrency levels of the load curve; empty: none. */
  concurrency: number[];
  /** Request rates (per second, Poisson arrivals) of the load curve; empty: none. */
  request_rate: number[];
  /** Requests per load level. */
  requests: number;
  /** Seed of the Poisson arrivals. */
  seed: number;
  /** Goodput targets in ms, null when not set. */
  slo_ttft_ms: number | null;
  slo_tpot_ms: number | null;
  /** Goodput target on the end-to-end latency (ms), null when not set. */
  slo_e2el_ms?: number | null;
  /** `--dataset`: a ShareGPT JSON or JSON Lines file of requests; null: none. */
  dataset?: string | null;
  /** `--dataset-sample`: requests picked from the dataset (seeded by `seed`); null: all. */
  dataset_sample?: number | null;
  /** Standard deviations of the prompt and output lengths (normal, clipped at 1); 0: none. */
  prompt_tokens_stddev?: number;
  gen_tokens_stddev?: number;
  /** Lengths uniform in [target·(1−R), target·(1+R)]; 0: none. */
  range_ratio?: number;
  /** Shape of the gamma inter-arrival times of a rate (1: Poisson). */
  burstiness?: number;
  /** `--duration`: seconds each load level lasts instead of `requests` requests; null: none. */
  duration_s?: number | null;
  /** Requests sent and discarded before measuring (the first with the configured prompt). */
  warmup_requests?: number;
  /**
   * `--kv-depth`: context tokens filled before each request's own prompt (llama-bench `-d`): a
   * dimension of the grid; 0 is no filled context. Empty: none.
   */
  kv_depth?: number[];
  /** `--shared-prefix-tokens`: the same first N tokens in every request (prompt cache); 0: none. */
  shared_prefix_tokens?: number;
}

/** A workload with every option filled in. */
export type FullWorkload = Required<WorkloadOptions>;

/** The values of the options a workload may leave out. */
const WORKLOAD_DEFAULTS = {
  slo_e2el_ms: null,
  dataset: null,
  dataset_sample: null,
  prompt_tokens_stddev: 0,
  gen_tokens_stddev: 0,
  range_ratio: 0,
  burstiness: 1,
  duration_s: null,
  warmup_requests: 1,
  kv_depth: [] as number[],
  shared_prefix_tokens: 0,
} as const;

/** Every option of a run that is not configuration. */
export interface RunOptions {
  action: Action;
  preset: string | null;
  limit: number | null;
  dev_mode: boolean;
  filters: FilterOptions;
  retest: boolean;
  export_cache: string | null;
  /** `--store-copy-to`: the PostgreSQL store the results are copied into. */
  store_copy_to: string | null;
  /** `--import`: the file of another tool's results to store. */
  import_file?: string | null;
  enable_profiling: boolean;
  max_temp: number | null;
  max_power: number | null;
  disable_gtt: boolean;
  n_parallel: number;
  unified_kv_cache: boolean;
  compare_with: string | null;
  rank_by: "speed" | "efficiency" | "ttft" | "vram";
  /** `--request-timeout` in seconds; null: the defaults (60 s first byte, 300 s after). */
  request_timeout?: number | null;
  debug: boolean;
  /** `--json`: the results document on standard output. */
  json?: boolean;
  /** `--save-requests`: the JSON Lines file of every request of the benchmark. */
  save_requests?: string | null;
  /** `--percentiles`: the percentiles (0–100) the console's latency tables show; null: theirs. */
  percentiles?: number[] | null;
  /** Controlled workload and load curve. */
  workload?: WorkloadOptions;
  /** Flag keys given on the command line or by a preset (to warn only about what was asked). */
  given?: string[];
}

/** The workload of run options (all off when absent, defaults for what it leaves out). */
export function workloadOf(options: Pick<RunOptions, "workload">): FullWorkload {
  const given = Object.fromEntries(
    Object.entries(options.workload ?? {}).filter(([, v]) => v !== undefined),
  );
  return {
    prompt_tokens: [],
    gen_tokens: [],
    concurrency: [],
    request_rate: [],
    requests: 16,
    seed: 42,
    slo_ttft_ms: null,
    slo_tpot_ms: null,
    ...WORKLOAD_DEFAULTS,
    ...given,
  } as FullWorkload;
}

/** A run resolved from a command line or the dashboard's form: what the benchmark runs. */
export interface ResolvedRun {
  config: Config;
  options: RunOptions;
  layers: LayerReport[];
  paths: Paths;
  /** The arguments the preset contributed (empty without `--preset`). */
  presetArgs: string[];
}
