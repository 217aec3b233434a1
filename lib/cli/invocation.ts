/**
 * Resolves a command line into what the benchmark runs: the configuration layers with the
 * command line on top, a preset's arguments under the user's, and the run options.
 *
 * @module
 */
import type { ResolvedRun } from "../bench/mod.ts";
import {
  applyLayer,
  backendOf,
  type Config,
  type EnvReader,
  loadConfig,
  loadPreset,
  processEnv,
  resolvePaths,
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
  if (
    w && (w.slo_ttft_ms !== null || w.slo_tpot_ms !== null) && !w.concurrency.length &&
    !w.request_rate.length
  ) {
    throw badRequest(
      "--slo-ttft and --slo-tpot set the goodput of a load curve: add --concurrency or --request-rate",
    );
  }
  if (runOptions.dev_mode) config.num_runs = 1;
  const layers = [...base.layers, { source: "command line", found: true, unknownKeys: [] }];
  return { kind: "run", config, options: runOptions, layers, paths, presetArgs };
}
