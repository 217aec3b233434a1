/**
 * Resolves a command line into what the benchmark runs: the configuration layers with the
 * command line on top, a preset's arguments under the user's, and the run options.
 *
 * @module
 */
import type { ResolvedRun, WorkloadOptions } from "../bench/mod.ts";
import {
  applyLayer,
  backendOf,
  type Config,
  type EnvReader,
  loadConfig,
  loadPreset,
  processEnv,
  resolvePaths,
  storeLocation,
} from "../config/mod.ts";
import { AppError, badRequest, UnprocessableError } from "../error.ts";
import { configPathOf, flagsToOverrides, flagsToRunOptions } from "./options.ts";
import { type Flags, parseFlags } from "./program.ts";
import { presetToArgs } from "./presets_args.ts";

/** What a command line asks for. */
export type Invocation =
  | { kind: "help"; text: string }
  | { kind: "run" } & ResolvedRun;

/** Options of {@linkcode resolveInvocation}. */
export interface ResolveOptions {
  env?: EnvReader;
  /** Project configuration file. @default config/defaults.json of this repository */
  projectFile?: string;
}

function getPath(obj: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>(
    (node, part) => (node as Record<string, unknown> | undefined)?.[part],
    obj,
  );
}

/** Help defaults per flag key: the configuration value each flag overrides. */
function helpDefaults(config: Config): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (
    const key of [
      "runs",
      "context",
      "prompt",
      "temperature",
      "top_k",
      "top_p",
      "min_p",
      "repeat_penalty",
      "max_tokens",
      "n_gpu_layers",
      "n_batch",
      "n_threads",
      "rope_freq_base",
      "rope_freq_scale",
      "kv_cache_quant",
      "backend",
      "base_url",
    ]
  ) {
    const value = getPath(config, configPathOf(key)!);
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Parses `argv` against the configuration found through `env`. Errors are `AppError`s: 400 for
 * bad arguments (exit code 2), 422 for a broken configuration or preset file.
 */
export async function resolveInvocation(
  argv: string[],
  options: ResolveOptions = {},
): Promise<Invocation> {
  const paths = resolvePaths(options.env ?? processEnv);
  const base = await loadConfig({ projectFile: options.projectFile, userFile: paths.userDefaults });
  const parsed = parseFlags(argv, { helpDefaults: helpDefaults(base.config) });
  if ("help" in parsed) return { kind: "help", text: parsed.help };

  let flags: Flags = parsed.flags;
  let presetArgs: string[] = [];
  if (typeof flags.preset === "string") {
    const preset = await loadPreset(paths.presetsDir, flags.preset);
    presetArgs = presetToArgs(preset.name, preset.values);
    let fromPreset: Flags;
    try {
      const result = parseFlags(presetArgs);
      fromPreset = "flags" in result ? result.flags : {};
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      throw new UnprocessableError(`Invalid preset '${preset.name}': ${err.message}`, {
        code: "invalid_preset",
      });
    }
    flags = { ...fromPreset, ...flags };
  }

  const config = applyLayer(base.config, flagsToOverrides(flags), "the command line");
  const runOptions = flagsToRunOptions(flags);
  const w = runOptions.workload;
  if (backendOf(config) === "sdk" && w && (w.concurrency.length || w.request_rate.length)) {
    throw badRequest(
      "A load curve (--concurrency, --request-rate) sends concurrent requests, which SDK mode " +
        "does not: add --use-rest-api (LM Studio) or --backend openai --base-url URL",
    );
  }
  if (w) await checkWorkload(w);
  const over = (runOptions.percentiles ?? []).find((p) => p >= 100);
  if (over !== undefined) {
    throw badRequest(`--percentiles takes values below 100 (given: ${over})`);
  }
  if (runOptions.dev_mode) config.num_runs = 1;
  const layers = [...base.layers, { source: "command line", found: true, unknownKeys: [] }];
  const database = storeLocation(paths, {
    flag: flags.store as string | undefined,
    env: options.env ?? processEnv,
    configured: config.store?.url,
  });
  return {
    kind: "run",
    config,
    options: runOptions,
    layers,
    paths: { ...paths, database },
    presetArgs,
  };
}

/** Refuses workload options that contradict each other or do nothing; reads the dataset. */
async function checkWorkload(given: WorkloadOptions): Promise<void> {
  const w = {
    ...given,
    slo_e2el_ms: given.slo_e2el_ms ?? null,
    duration_s: given.duration_s ?? null,
    burstiness: given.burstiness ?? 1,
    prompt_tokens_stddev: given.prompt_tokens_stddev ?? 0,
    gen_tokens_stddev: given.gen_tokens_stddev ?? 0,
    range_ratio: given.range_ratio ?? 0,
    dataset: given.dataset ?? null,
    dataset_sample: given.dataset_sample ?? null,
  };
  const curve = w.concurrency.length > 0 || w.request_rate.length > 0;
  if ((w.slo_ttft_ms !== null || w.slo_tpot_ms !== null || w.slo_e2el_ms !== null) && !curve) {
    throw badRequest(
      "--slo-ttft, --slo-tpot and --slo-e2el set the goodput of a load curve: add --concurrency or --request-rate",
    );
  }
  if (w.duration_s !== null && !curve) {
    throw badRequest(
      "--duration sets how long each load level lasts: add --concurrency or --request-rate",
    );
  }
  if (w.burstiness !== 1 && !w.request_rate.length) {
    throw badRequest("--burstiness shapes the arrivals of --request-rate: add it");
  }
  if (w.prompt_tokens_stddev > 0 && !w.prompt_tokens.length) {
    throw badRequest("--prompt-tokens-stddev spreads the lengths around --prompt-tokens: add it");
  }
  if (w.gen_tokens_stddev > 0 && !w.gen_tokens.length) {
    throw badRequest("--gen-tokens-stddev spreads the lengths around --gen-tokens: add it");
  }
  if (w.range_ratio > 0 && !w.prompt_tokens.length && !w.gen_tokens.length) {
    throw badRequest(
      "--range-ratio spreads the lengths of --prompt-tokens and --gen-tokens: add one",
    );
  }
  if (w.range_ratio > 0 && (w.prompt_tokens_stddev > 0 || w.gen_tokens_stddev > 0)) {
    throw badRequest(
      "--range-ratio and the --*-tokens-stddev options contradict each other: use one",
    );
  }
  if (w.dataset_sample !== null && w.dataset === null) {
    throw badRequest("--dataset-sample picks requests of a dataset: add --dataset PATH");
  }
  if (w.dataset !== null) {
    if (w.prompt_tokens.length || w.gen_tokens.length) {
      throw badRequest(
        "--dataset sets the prompts and output lengths: leave out --prompt-tokens and --gen-tokens",
      );
    }
    if ((w.kv_depth ?? []).some((d) => d > 0)) {
      throw badRequest("--dataset sets the prompts: leave out --kv-depth");
    }
    // Read now, so a file that cannot serve is said before any server is asked (the benchmark
    // code is loaded only for this: the command line's start stays light).
    const { loadDataset } = await import("../bench/mod.ts");
    await loadDataset(w.dataset, w.dataset_sample, w.seed);
  }
}
