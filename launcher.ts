/**
 * The packaged launcher (seed: "Entry script rules", last paragraph): with no arguments, or only
 * `--debug`/`-d`, it runs the tray controller alone at `http://localhost:1234` (`--debug` gives
 * verbose logging) and no benchmark runs; any other argument hands everything to the entry
 * script (`main.ts` rules: `--help`, `--webapp`, or the benchmark).
 *
 * @module
 */
import { withoutLeadingDashDash } from "./lib/args.ts";
import { resolveInvocation } from "./lib/cli/mod.ts";
import { runEntry, systemEntryDeps } from "./lib/entry/mod.ts";
import { DEFAULT_TRAY_URL, runTray, systemTrayDeps } from "./lib/tray/mod.ts";

/** What the launcher does with its arguments. */
export type LaunchPlan =
  | { kind: "tray"; args: string[] }
  | { kind: "entry"; args: string[] };

/**
 * Decides between the tray alone and the entry script.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planLaunch } from "./launcher.ts";
 * assert.equal(planLaunch(["-d"]).kind, "tray");
 * assert.equal(planLaunch(["--runs", "1"]).kind, "entry");
 * ```
 */
export function planLaunch(given: string[]): LaunchPlan {
  const argv = withoutLeadingDashDash(given);
  if (argv.every((a) => a === "--debug" || a === "-d")) {
    const debug = argv.length > 0 ? ["--debug"] : [];
    return { kind: "tray", args: ["--url", DEFAULT_TRAY_URL, ...debug] };
  }
  return { kind: "entry", args: argv };
}

async function benchmarkHelp(): Promise<string> {
  const inv = await resolveInvocation(["--help"]);
  return inv.kind === "help" ? inv.text : "";
}

if (import.meta.main) {
  const plan = planLaunch(Deno.args);
  if (plan.kind === "tray") {
    const deps = systemTrayDeps();
    deps.onOpen = (adapter) => {
      const close = () => void adapter.close();
      Deno.addSignalListener("SIGINT", close);
      Deno.addSignalListener("SIGTERM", close);
    };
    Deno.exit(await runTray(plan.args, deps));
  }
  const root = Deno.env.get("LOCALBENCH_ROOT") || (import.meta.dirname ?? ".");
  Deno.exit(await runEntry(plan.args, systemEntryDeps(root, benchmarkHelp)));
}
