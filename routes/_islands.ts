/**
 * Every island of the web app — the dashboard's pages and the plugin host's pages — as the one
 * esbuild run bundles them (with the boot script) into `static/_islands/`. Only module paths,
 * no imports: the host's launcher reads it without loading the islands.
 * `tests/routes/web_layer_test.ts` checks that it lists every file of `islands/`.
 *
 * @module
 */
import { join } from "node:path";

/** The island modules to bundle: entry name → path from the project root. */
export const ISLAND_FILES: Readonly<Record<string, string>> = {
  BenchmarkPanel: "islands/BenchmarkPanel.tsx",
  Chart: "islands/Chart.tsx",
  LogViewer: "islands/LogViewer.tsx",
  PowerPanel: "islands/PowerPanel.tsx",
  ResultsBrowser: "islands/ResultsBrowser.tsx",
  TempEtaNavbar: "islands/TempEtaNavbar.tsx",
  TempEtaPanel: "islands/TempEtaPanel.tsx",
  UptimeWidget: "islands/UptimeWidget.tsx",
};

/**
 * The island modules as absolute paths under `root` (the folder holding `islands/`), as the
 * `islands` option of `buildIslands` (`lib/http/fw_build.ts`) takes them.
 *
 * @example
 * ```ts
 * import { islandEntries } from "./_islands.ts";
 * console.assert(islandEntries("/app").Chart === "/app/islands/Chart.tsx");
 * ```
 */
export function islandEntries(root: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ISLAND_FILES).map(([name, file]) => [name, join(root, file)]),
  );
}
