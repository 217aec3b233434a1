/**
 * The command line against a real llama-server, for the engine's scenario tests: `cli.ts` with the
 * OpenAI-compatible backend at the server's address (64 output tokens at most), and the results
 * a command stored, each with its runs and grid rows (any backend).
 *
 * @module
 */
import { join } from "node:path";
import type { LlamaServer } from "../../lib/engine/mod.ts";
import { type ResultRow, ResultsStore, type Row } from "../../lib/store/mod.ts";
import { runDeno, type TempEnv } from "../_helpers.ts";

/** Runs `cli.ts ARGS` against `server` in `env`. */
export function engineCli(args: string[], env: TempEnv, server: LlamaServer) {
  return runDeno(
    [
      "run",
      "-A",
      "cli.ts",
      ...["--backend", "openai", "--base-url", server.url, "--max-tokens", "64"],
      ...args,
    ],
    { env: env.vars },
  );
}

/** Every stored result of `env`'s store, oldest first, with its runs and grid rows. */
export function storedResults(env: TempEnv): (ResultRow & { runs: Row[]; grid: Row[] })[] {
  const store = ResultsStore.open(join(env.dataDir, "results.db"));
  try {
    return store.allResults().map((r) =>
      Object.assign(r, { runs: store.runsOf(r.id), grid: store.gridOf(r.id) })
    );
  } finally {
    store.close();
  }
}
