/**
 * Finds an executable on `PATH` without spawning `which`.
 *
 * @module
 */

/**
 * The first executable file named `name` in the `PATH` folders, or `null`.
 *
 * @param name command name, e.g. `cmake`
 * @param path a `PATH`-style list. @default Deno.env.get("PATH")
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findOnPath } from "./which.ts";
 * assert.notEqual(findOnPath("sh", "/bin:/usr/bin"), null);
 * ```
 */
export function findOnPath(name: string, path = Deno.env.get("PATH") ?? ""): string | null {
  for (const dir of path.split(":")) {
    if (!dir) continue;
    try {
      const info = Deno.statSync(`${dir}/${name}`);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return `${dir}/${name}`;
    } catch {
      // Not in this folder.
    }
  }
  return null;
}
