/**
 * Entry of `deno task agent`: this machine as a fleet agent of a shared PostgreSQL store. It
 * takes the benchmark jobs the dashboard sends to its name and runs them against this machine's
 * model server until Ctrl-C. See `lib/fleet/agent_main.ts` and docs/team.md.
 *
 * Usage: `deno task agent -- --store postgres://user:password@host:5432/db [--name NAME]
 * [benchmark arguments...]`
 *
 * @module
 */
import { withoutLeadingDashDash } from "./lib/args.ts";
import { captureMachine, machineDeps } from "./lib/bench/mod.ts";
import { processEnv, resolvePaths } from "./lib/config/mod.ts";
import { exitCodeOf, messageOf } from "./lib/error.ts";
import { runAgent } from "./lib/fleet/mod.ts";
import { print, printError } from "./lib/log.ts";
import { ResultsStore } from "./lib/store/mod.ts";

/** Resolves at the first Ctrl-C or SIGTERM. */
function stopRequested(): Promise<void> {
  return new Promise((resolve) => {
    Deno.addSignalListener("SIGINT", () => resolve());
    Deno.addSignalListener("SIGTERM", () => resolve());
  });
}

if (import.meta.main) {
  try {
    Deno.exit(
      await runAgent(withoutLeadingDashDash(Deno.args), {
        env: processEnv,
        openStore: (url) => ResultsStore.open(url),
        machine: (server) => captureMachine(machineDeps(resolvePaths(processEnv).dataDir), server),
        stopRequested,
        say: print,
      }),
    );
  } catch (err) {
    printError(`Error: ${messageOf(err)}`);
    Deno.exit(exitCodeOf(err));
  }
}
