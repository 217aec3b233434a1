/**
 * `deno task demo [-- benchmark options]`: the main job on an embedded default. Builds the real
 * engine once (llama.cpp's `llama-server` and two tiny generated models, see
 * `deno task engine:setup`), starts it in router mode on loopback, runs the benchmark against it
 * with the OpenAI-compatible backend (every run measured again: `--retest`), prints the results
 * table and the report paths, and stops the engine.
 *
 * @module
 */
import { join } from "node:path";
import { withoutLeadingDashDash } from "../lib/args.ts";
import { resolveInvocation } from "../lib/cli/mod.ts";
import { exitCodeOf, messageOf } from "../lib/error.ts";
import { findEngine, startLlamaServer } from "../lib/engine/mod.ts";
import { PROGRAM_PERMISSIONS } from "../lib/entry/mod.ts";
import { print, printError } from "../lib/log.ts";

const root = join(import.meta.dirname ?? ".", "..");
const config = join(root, "deno.json");

async function run(args: string[]): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}

/** Usage of the demo; the benchmark's own help follows it. */
export const DEMO_HELP =
  `localbench demo — benchmark two real tiny models on llama.cpp's llama-server

Usage: deno task demo [-- benchmark options]

Builds llama-server and two generated models once (deno task engine:setup, a few minutes), starts
the server in router mode on 127.0.0.1, runs the benchmark against it (--backend openai
--base-url <server> --retest plus the options given here), prints the table and the report
paths, and stops the server.

The benchmark's options follow.
`;

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    const inv = await resolveInvocation(["--help"]);
    print(DEMO_HELP);
    if (inv.kind === "help") print(inv.text);
    return 0;
  }
  if (!findEngine()) {
    print("The demo engine is not built yet: building it once (a few minutes)…");
    const code = await run(["task", "--config", config, "engine:setup"]);
    if (code !== 0) return code;
  }
  const engine = findEngine();
  if (!engine) {
    printError("localbench demo: the engine is still missing after 'deno task engine:setup'");
    return 1;
  }
  print(
    `Starting llama-server (router mode) with ${engine.manifest.models.length} generated models…`,
  );
  await using server = await startLlamaServer({ ctxSize: 2048, parallel: 4, modelsMax: 2 });
  print(`llama-server listens on ${server.url}`);
  return await run([
    "run",
    ...PROGRAM_PERMISSIONS,
    "--config",
    config,
    join(root, "cli.ts"),
    "--backend",
    "openai",
    "--base-url",
    server.url,
    "--retest",
    ...argv,
  ]);
}

if (import.meta.main) {
  try {
    Deno.exit(await main(withoutLeadingDashDash(Deno.args)));
  } catch (err) {
    printError(`localbench demo: ${messageOf(err)}`);
    Deno.exit(exitCodeOf(err));
  }
}
