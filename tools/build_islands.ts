/**
 * Builds every island of the web app into a `static/` folder: the dashboard's into
 * `_islands/dashboard/`, the plugin host pages' into `_islands/`. `tools/bundle.sh` runs it for
 * `dist/static/`, so the bundled web app serves them without building anything.
 *
 * Usage: `deno run -A tools/build_islands.ts [STATIC_DIR]` (default: the project's `static/`).
 *
 * @module
 */
import { resolve } from "node:path";
import { print, printError } from "../lib/log.ts";
import { messageOf } from "../lib/error.ts";
import { buildDashboardIslands, buildHostPageIslands, STATIC_DIR } from "../webapp.ts";

/** Builds both island sets into `staticDir`. */
export async function buildWebIslands(staticDir: string): Promise<void> {
  await buildDashboardIslands(staticDir);
  await buildHostPageIslands(staticDir);
}

if (import.meta.main) {
  const dir = Deno.args[0] === undefined ? STATIC_DIR : resolve(Deno.args[0]);
  try {
    await buildWebIslands(dir);
    print(`islands: built into ${dir}/_islands`);
  } catch (err) {
    printError(`islands: error: ${messageOf(err)}`);
    Deno.exit(1);
  }
}
