/**
 * The benchmark command line (`deno task bench -- [options]`). Parsing and actions live in
 * lib/cli; the benchmark itself in lib/bench.
 *
 * @module
 */
import { runBenchmarkCommand } from "./lib/bench/mod.ts";
import { runCli } from "./lib/cli/mod.ts";

if (import.meta.main) {
  Deno.exit(
    await runCli(Deno.args, { benchmark: (inv, output) => runBenchmarkCommand(inv, output) }),
  );
}
