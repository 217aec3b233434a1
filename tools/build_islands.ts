/**
 * Builds every island of the web app (the dashboard's and the plugin host pages', one esbuild
 * run) into `_islands/` of a `static/` folder. `tools/bundle.sh` runs it for `dist/static/`, so
 * the bundled web app serves them without building anything.
 *
 * Usage: `deno run -A tools/build_islands.ts [STATIC_DIR]` (default: the project's `static/`).
 *
 * @module
 */
import { resolve } from "node:path";
import { print, printError } from "../lib/log.ts";
import { messageOf } from "../lib/error.ts";
import { buildWebIslands, STATIC_DIR } from "../webapp.ts";

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
