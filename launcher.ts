/**
 * The packaged launcher (seed: "Entry script rules", last paragraph): with no arguments, or only
 * `--debug`/`-d`, it runs the tray controller alone at `http://localhost:1234` (`--debug` gives
 * verbose logging) and no benchmark runs; any other argument hands everything to the entry
 * script (`main.ts` rules: `--help`, `--webapp`, or the benchmark).
 *
 * @module
 */
import { resolveInvocation } from "./lib/cli/mod.ts";
import { planLaunch, runEntry, systemEntryDeps } from "./lib/entry/mod.ts";
import { runTray, systemTrayDeps } from "./lib/tray/mod.ts";

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
