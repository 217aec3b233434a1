/**
 * The benchmark command line (`deno task bench -- [options]`). Parsing and actions live in
 * lib/cli; the benchmark itself in lib/bench; reports (after a benchmark and `--export-only`) in
 * lib/reports.
 *
 * @module
 */
import { runCli } from "./lib/cli/mod.ts";

if (import.meta.main) {
  Deno.exit(
    await runCli(Deno.args, {
      benchmark: async (inv, output) => {
        // Loaded when a command needs them: --help, --list-presets, --list-cache... start without
        // the benchmark, the model-server clients and the exporters (tests/cli_test.ts).
        if (inv.options.action === "list-models") {
          const { runListModels } = await import("./lib/bench/mod.ts");
          return await runListModels(inv, output);
        }
        const { prepareReports, runExportOnly } = await import("./lib/reports/mod.ts");
        if (inv.options.action === "export-only") return await runExportOnly(inv, output);
        const reports = await prepareReports(inv); // checks --compare-with before measuring
        const { runBenchmarkCommand } = await import("./lib/bench/mod.ts");
        return await runBenchmarkCommand(inv, output, { after: reports.after });
      },
    }),
  );
}
