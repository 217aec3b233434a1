/**
 * The benchmark command line (`deno task bench -- [options]`). Parsing and actions live in
 * lib/cli; the benchmark itself in lib/bench; reports (after a benchmark and `--export-only`) in
 * lib/reports.
 *
 * @module
 */
import { runBenchmarkCommand } from "./lib/bench/mod.ts";
import { runCli } from "./lib/cli/mod.ts";
import { prepareReports, runExportOnly } from "./lib/reports/mod.ts";

if (import.meta.main) {
  Deno.exit(
    await runCli(Deno.args, {
      benchmark: async (inv, output) => {
        if (inv.options.action === "export-only") return await runExportOnly(inv, output);
        const reports = await prepareReports(inv); // checks --compare-with before measuring
        return await runBenchmarkCommand(inv, output, { after: reports.after });
      },
    }),
  );
}
