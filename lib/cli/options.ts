/**
 * From parsed flags to the two things the benchmark reads: configuration overrides (the highest
 * configuration layer) and the run options (filters, cache, profiling, comparison...).
 *
 * @module
 */
import type { BackendKind, JsonObject } from "../config/mod.ts";
import { badRequest } from "../error.ts";
import type { Flags } from "./program.ts";
import { FLAGS } from "./flags.ts";

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
}

/** Every option of a run that is not configuration. */
export interface RunOptions {
  action: Action;
  preset: string | null;
  limit: number | null;
  dev_mode: boolean;
  filters: FilterOptions;
  retest: boolean;
  export_cache: string | null;
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
  /** Controlled workload and load curve. */
  workload?: WorkloadOptions;
  /** Flag keys given on the command line or by a preset (to warn only about what was asked). */
  given?: string[];
}

/** The workload of run options (all off when absent). */
export function workloadOf(options: Pick<RunOptions, "workload">): WorkloadOptions {
  return options.workload ?? {
    prompt_tokens: [],
    gen_tokens: [],
    concurrency: [],
    request_rate: [],
    requests: 16,
    seed: 42,
    slo_ttft_ms: null,
    slo_tpot_ms: null,
  };
}

/**
 * Flag key → configuration path: the table's `config` of every flag, and the token (left out of
 * the table's `config` so that the help never shows it and an empty one is refused).
 */
const CONFIG_PATHS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(FLAGS.flatMap((f) => f.config ? [[f.key, f.config]] : [])),
  api_token: "modelserver.api_token",
};

/** The configuration path a flag writes, if any. */
export function configPathOf(key: string): string | undefined {
  return CONFIG_PATHS[key];
}

/** Builds the command-line configuration layer from the flags. */
export function flagsToOverrides(flags: Flags): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(flags)) {
    const path = CONFIG_PATHS[key];
    if (!path) continue;
    const parts = path.split(".");
    let node = out;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as JsonObject;
    node[parts.at(-1)!] = value;
  }
  if (flags.use_rest_api === true && flags.backend !== undefined && flags.backend !== "rest") {
    throw badRequest(
      `options '--use-rest-api' and '--backend ${flags.backend}' contradict each other`,
    );
  }
  if (flags.use_rest_api === true) {
    const ms = (out.modelserver ??= {}) as JsonObject;
    ms.backend = "rest" satisfies BackendKind;
  }
  return out;
}

function pick<T>(flags: Flags, key: string, fallback: T): T {
  return (flags[key] as T | undefined) ?? fallback;
}

/** Builds the run options from the flags (defaults for the rest). */
export function flagsToRunOptions(flags: Flags): RunOptions {
  const action: Action = flags.list_presets
    ? "list-presets"
    : flags.print_config
    ? "print-config"
    : flags.list_cache
    ? "list-cache"
    : flags.export_cache
    ? "export-cache"
    : flags.export_only
    ? "export-only"
    : flags.list_models
    ? "list-models"
    : "benchmark";
  return {
    action,
    preset: pick(flags, "preset", null),
    limit: pick(flags, "limit", null),
    dev_mode: pick(flags, "dev_mode", false),
    filters: {
      only_vision: pick(flags, "only_vision", false),
      only_tools: pick(flags, "only_tools", false),
      quants: pick(flags, "quants", []),
      arch: pick(flags, "arch", []),
      params: pick(flags, "params", []),
      min_context: pick(flags, "min_context", null),
      max_size: pick(flags, "max_size", null),
      include_models: pick(flags, "include_models", null),
      exclude_models: pick(flags, "exclude_models", null),
    },
    retest: pick(flags, "retest", false),
    export_cache: pick(flags, "export_cache", null),
    enable_profiling: pick(flags, "enable_profiling", false),
    max_temp: pick(flags, "max_temp", null),
    max_power: pick(flags, "max_power", null),
    disable_gtt: pick(flags, "disable_gtt", false),
    n_parallel: pick(flags, "n_parallel", 4),
    unified_kv_cache: pick(flags, "unified_kv_cache", false),
    compare_with: pick(flags, "compare_with", null),
    rank_by: pick(flags, "rank_by", "speed"),
    request_timeout: pick(flags, "request_timeout", null),
    debug: pick(flags, "debug", false),
    json: pick(flags, "json", false),
    workload: {
      prompt_tokens: pick(flags, "prompt_tokens", []),
      gen_tokens: pick(flags, "gen_tokens", []),
      concurrency: pick(flags, "concurrency", []),
      request_rate: pick(flags, "request_rate", []),
      requests: pick(flags, "requests", 16),
      seed: pick(flags, "seed", 42),
      slo_ttft_ms: pick(flags, "slo_ttft", null),
      slo_tpot_ms: pick(flags, "slo_tpot", null),
    },
    given: Object.keys(flags),
  };
}
