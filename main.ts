/**
 * Entry script: `--help` | `--webapp`/`-w` (dashboard) | the benchmark (see lib/entry/entry.ts).
 *
 * @module
 */
import { resolveInvocation } from "./lib/cli/mod.ts";
import { runEntry, systemEntryDeps } from "./lib/entry/mod.ts";

async function benchmarkHelp(): Promise<string> {
  const inv = await resolveInvocation(["--help"]);
  return inv.kind === "help" ? inv.text : "";
}

if (import.meta.main) {
  const root = import.meta.dirname ?? ".";
  Deno.exit(await runEntry(Deno.args, systemEntryDeps(root, benchmarkHelp)));
}
