/**
 * Where the built island bundles live (`<static>/_islands/`, served at `/_islands/`) and whether
 * a build is there: the servers only check, the build (`deno task build`) writes them.
 *
 * @module
 */
import { join } from "node:path";

/** The folder of the island bundles inside the static folder. */
export const ISLANDS_DIR = "_islands";

/** The URL the island bundles are served at. */
export const ISLANDS_URL = "/_islands";

/**
 * Whether `outDir` already holds a build: its boot script and the bundle of each of `islands`
 * (entry names) exist.
 *
 * @example
 * ```ts ignore
 * import { hasBuild } from "./bundles.ts";
 * if (!(await hasBuild("static/_islands", ["Chart"]))) console.log("build first");
 * ```
 */
export async function hasBuild(outDir: string, islands: readonly string[] = []): Promise<boolean> {
  for (const name of ["boot", ...islands]) {
    try {
      if (!(await Deno.stat(join(outDir, `${name}.js`))).isFile) return false;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return false;
      throw err;
    }
  }
  return true;
}
