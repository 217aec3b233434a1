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
import { processEnv } from "./lib/config/mod.ts";
import { exitCodeOf, messageOf } from "./lib/error.ts";
import { runAgent } from "./lib/fleet/mod.ts";
import { print, printError } from "./lib/log.ts";
import { ResultsStore } from "./lib/store/mod.ts";

/** This machine as the fleet view shows it. */
function machine(): Record<string, unknown> {
  return {
    hostname: Deno.hostname(),
    os: `${Deno.build.os} ${Deno.osRelease()}`,
    cpu_cores: navigator.hardwareConcurrency,
    ram_bytes: Deno.systemMemoryInfo().total,
  };
}

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
        machine,
        stopRequested,
        say: print,
      }),
    );
  } catch (err) {
    printError(`Error: ${messageOf(err)}`);
    Deno.exit(exitCodeOf(err));
  }
}
