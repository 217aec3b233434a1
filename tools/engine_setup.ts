/**
 * `deno task engine:setup [--force] [--keep-build] [--jobs N]`: builds llama.cpp's `llama-server`
 * from the source bundled in the npm package node-llama-cpp and generates tiny random-weight GGUF
 * models, into `${XDG_CACHE_HOME:-~/.cache}/localbench/engine/<llama.cpp commit>/` (or
 * `$LOCALBENCH_ENGINE_DIR`). Idempotent: a second run only prints where things are.
 *
 * @module
 */

import { parseOptions } from "../lib/args.ts";
import { exitCodeOf, messageOf, UsageError } from "../lib/error.ts";
import { print, printError } from "../lib/log.ts";
import { ENGINE_DIR_ENV, engineRoot } from "../lib/engine/mod.ts";
import { denoRunner } from "./engine/run.ts";
import { describeEngine, runEngineSetup } from "./engine/setup.ts";

const HELP = `Usage: deno task engine:setup [--force] [--keep-build] [--jobs N]

Builds llama-server and llama-bench (llama.cpp from npm node-llama-cpp's bundled source) and
generates two tiny random-weight models; only missing targets are built into a current engine. Needs cmake, g++, ninja and git (installed with apt-get when run as root).

  --force       rebuild and regenerate even when up to date
  --keep-build  keep the downloaded package, source and build tree (work/) afterwards
  --jobs N      parallel compile jobs (default: number of CPUs)
  -h, --help    show this help

The engine directory is $${ENGINE_DIR_ENV} when set, else
\${XDG_CACHE_HOME:-~/.cache}/localbench/engine/<llama.cpp commit>.`;

/** Parsed command line. */
export interface SetupArgs {
  /** Rebuild. */
  force: boolean;
  /** Keep work/. */
  keepBuild: boolean;
  /** Compile jobs, when given. */
  jobs?: number;
  /** Show help. */
  help: boolean;
}

/**
 * Parses the command line.
 *
 * @throws {UsageError} for an unknown flag or a bad `--jobs`
 */
export function parseSetupArgs(argv: string[]): SetupArgs {
  const { values } = parseOptions({
    args: argv,
    options: {
      force: { type: "boolean" },
      "keep-build": { type: "boolean" },
      jobs: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs <= 0)) {
    throw new UsageError("Cannot parse --jobs: expected a positive integer");
  }
  return {
    force: values.force ?? false,
    keepBuild: values["keep-build"] ?? false,
    help: values.help ?? false,
    ...(jobs === undefined ? {} : { jobs }),
  };
}

async function main(argv: string[]): Promise<number> {
  let args: SetupArgs;
  try {
    args = parseSetupArgs(argv);
  } catch (err) {
    printError(`engine:setup: ${messageOf(err)}\n\n${HELP}`);
    return 2;
  }
  if (args.help) {
    print(HELP);
    return 0;
  }
  const root = engineRoot();
  const say = (line: string) => print(`engine: ${line}`);
  try {
    say(`directory ${root}`);
    const result = await runEngineSetup({
      root,
      force: args.force,
      keepBuild: args.keepBuild,
      runner: denoRunner,
      say,
      ...(args.jobs ? { jobs: args.jobs } : {}),
    });
    if (!result.built && !result.generated) {
      say("already set up; nothing to do (use --force to rebuild)");
    }
    for (const line of describeEngine(root)) say(line);
    return 0;
  } catch (err) {
    printError(`engine:setup: ${messageOf(err)}`);
    return exitCodeOf(err);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
