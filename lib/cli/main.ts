/**
 * The benchmark command line: parses the arguments, runs the action and maps errors to exit
 * codes (400 → 2, anything else → 1); an unexpected error is one line too (its stack only with
 * `--debug`). With `--json` a failure is also `{"error", "code"}` on standard output, so a script
 * always reads one JSON document there. `cli.ts` only calls {@linkcode runCli}.
 *
 * @module
 */
import { type EnvReader } from "../config/mod.ts";
import { AppError, exitCodeOf, messageOf } from "../error.ts";
import { print, printError } from "../log.ts";
import {
  configJson,
  exportCacheFile,
  layersText,
  listCacheText,
  listPresetsText,
} from "./actions.ts";
import { type Output } from "../log.ts";
import { type Invocation, resolveInvocation } from "./invocation.ts";

/** Runs a resolved benchmark invocation (lib/bench); returns the exit code. */
export type BenchmarkRunner = (
  invocation: Extract<Invocation, { kind: "run" }>,
  output: Output,
) => Promise<number>;

/** Options of {@linkcode runCli}. */
export interface CliOptions {
  env?: EnvReader;
  projectFile?: string;
  output?: Output;
  /** Runs the benchmark and `--export-only`. */
  benchmark?: BenchmarkRunner;
}

const stdio: Output = { out: print, err: printError };

/** Runs the benchmark command line and returns its exit code. */
export async function runCli(argv: string[], options: CliOptions = {}): Promise<number> {
  const given = options.output ?? stdio;
  // Whether standard output got a document already (then a failure is said on stderr only).
  let printed = false;
  const output: Output = {
    out: (text) => {
      printed = true;
      given.out(text);
    },
    err: (text) => given.err(text),
  };
  try {
    const inv = await resolveInvocation(argv, {
      env: options.env,
      projectFile: options.projectFile,
    });
    if (inv.kind === "help") {
      output.out(inv.text);
      return 0;
    }
    const json = inv.options.json;
    switch (inv.options.action) {
      case "list-presets":
        output.out(await listPresetsText(inv.paths, json));
        return 0;
      case "print-config":
        output.err(layersText(inv.layers));
        output.out(configJson(inv.config));
        return 0;
      case "list-cache":
        output.out(await listCacheText(inv.paths, json));
        return 0;
      case "export-cache": {
        const { path, count } = await exportCacheFile(inv.paths, inv.options.export_cache!);
        output.out(
          json ? JSON.stringify({ path, count }) : `Exported ${count} cached result(s) to ${path}`,
        );
        return 0;
      }
      case "store-copy": {
        const { copyStoreTo, copyText } = await import("./store_copy_action.ts");
        const summary = await copyStoreTo(inv.paths, inv.options.store_copy_to!);
        output.out(json ? JSON.stringify(summary) : copyText(summary));
        return 0;
      }
      case "import": {
        const file = inv.options.import_file!;
        const { importResults, importText } = await import("./import_action.ts");
        const summary = await importResults(inv.paths, file);
        output.out(json ? JSON.stringify({ file, ...summary }) : importText(file, summary));
        return 0;
      }
      default: {
        if (!options.benchmark) throw new TypeError("No benchmark runner is configured");
        return await options.benchmark(inv, output);
      }
    }
  } catch (err) {
    // With --json, standard output is always one JSON document: here {"error", "code"}. The
    // flag is looked for in the arguments themselves, as they may be what failed to parse.
    const json = argv.includes("--json");
    if (!(err instanceof AppError)) {
      // Never a stack trace for a user: one line, the details with --debug.
      const debug = argv.includes("--debug") || argv.includes("-d");
      output.err(
        `localbench: error: ${messageOf(err)} (unexpected; ` +
          (debug && err instanceof Error && err.stack
            ? `details follow)\n${err.stack}`
            : "run again with --debug for the details)"),
      );
      if (json && !printed) output.out(JSON.stringify({ error: messageOf(err), code: "internal" }));
      return 1;
    }
    const hint = exitCodeOf(err) === 2 ? " (see --help)" : "";
    output.err(`localbench: error: ${messageOf(err)}${hint}`);
    if (json && !printed) output.out(JSON.stringify({ error: messageOf(err), code: err.code }));
    return exitCodeOf(err);
  }
}
