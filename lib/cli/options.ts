/**
 * From parsed flags to the two things the benchmark reads: configuration overrides (the highest
 * configuration layer) and the run options (`lib/bench/options.ts`: filters, cache, profiling,
 * comparison...).
 *
 * @module
 */
import type { Action, RunOptions } from "../bench/mod.ts";
import type { BackendKind, JsonObject } from "../config/mod.ts";
import { badRequest } from "../error.ts";
import type { Flags } from "./program.ts";
import { FLAGS } from "./flags.ts";

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
    : flags.import
    ? "import"
    : flags.store_copy_to
    ? "store-copy"
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
    store_copy_to: pick(flags, "store_copy_to", null),
    import_file: pick(flags, "import", null),
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
    save_requests: pick(flags, "save_requests", null),
    percentiles: pick(flags, "percentiles", null),
    workload: {
      prompt_tokens: pick(flags, "prompt_tokens", []),
      gen_tokens: pick(flags, "gen_tokens", []),
      concurrency: pick(flags, "concurrency", []),
      request_rate: pick(flags, "request_rate", []),
      requests: pick(flags, "requests", 16),
      seed: pick(flags, "seed", 42),
      slo_ttft_ms: pick(flags, "slo_ttft", null),
      slo_tpot_ms: pick(flags, "slo_tpot", null),
      slo_e2el_ms: pick(flags, "slo_e2el", null),
      dataset: pick(flags, "dataset", null),
      dataset_sample: pick(flags, "dataset_sample", null),
      prompt_tokens_stddev: pick(flags, "prompt_tokens_stddev", 0),
      gen_tokens_stddev: pick(flags, "gen_tokens_stddev", 0),
      range_ratio: pick(flags, "range_ratio", 0),
      burstiness: pick(flags, "burstiness", 1),
      duration_s: pick(flags, "duration", null),
      warmup_requests: pick(flags, "warmup_requests", 1),
      kv_depth: pick(flags, "kv_depth", []),
      shared_prefix_tokens: pick(flags, "shared_prefix_tokens", 0),
    },
    given: Object.keys(flags),
  };
}
