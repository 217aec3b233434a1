/**
 * Route files to URL patterns, Fresh's naming rules: `index` is the folder itself, `[id]` a
 * parameter, `[...rest]` the rest of the path (slashes included); files and folders whose name
 * starts with `_` are not routes, except the special files found by name in each folder
 * (`_app`, `_layout`, `_middleware`, `_404`, `_500`).
 *
 * @module
 */
import { posix } from "node:path";

/** The special files, by name (without extension). */
export const SPECIAL_FILES = ["_app", "_layout", "_middleware", "_404", "_500"] as const;

/** A special file's name. */
export type SpecialName = typeof SPECIAL_FILES[number];

const EXT = /\.(tsx?|jsx?)$/;

/** The file name without folder and extension (`routes/api/_middleware.ts` → `_middleware`). */
export function stemOf(file: string): string {
  return posix.basename(file).replace(EXT, "");
}

/** Whether `file` (a path inside a route folder) is a special file. */
export function isSpecialFile(file: string): boolean {
  return (SPECIAL_FILES as readonly string[]).includes(stemOf(file));
}

/**
 * Whether a path below a route folder is a route: a `.ts`/`.tsx` file, no part starting with
 * `_`, no test file.
 *
 * @example
 * ```ts
 * import { isRouteFile } from "./segments.ts";
 * if (!isRouteFile("api/status.ts") || isRouteFile("_app.tsx")) throw new Error("wrong rule");
 * ```
 */
export function isRouteFile(rel: string): boolean {
  if (!EXT.test(rel) || /(_test|\.d)\.tsx?$/.test(rel)) return false;
  return !rel.split("/").some((p) => p.startsWith("_") || p.startsWith("."));
}

/**
 * The URL pattern (Hono syntax) of a route file, from its path below the tree's root folder:
 * `index` → the folder, `[id]` → `:id`, `[...rest]` → `:rest{.+}`.
 *
 * @example
 * ```ts
 * import { patternOf } from "./segments.ts";
 * if (patternOf("api/comparison/[...name].ts") !== "/api/comparison/:name{.+}") {
 *   throw new Error("wrong pattern");
 * }
 * ```
 */
export function patternOf(rel: string): string {
  const parts = rel.replace(EXT, "").split("/").filter((p) => p !== "index" && p !== "")
    .map((p) => {
      const rest = /^\[\.\.\.(\w+)\]$/.exec(p);
      if (rest) return `:${rest[1]}{.+}`;
      const param = /^\[(\w+)\]$/.exec(p);
      return param ? `:${param[1]}` : p;
    });
  return "/" + parts.join("/");
}

/** Sort key: static segments win over parameters, parameters over catch-alls. */
export function specificity(pattern: string): number {
  return pattern.split("/").reduce(
    (n, seg) => n * 3 + (seg.includes("{.+}") ? 0 : seg.startsWith(":") ? 1 : 2),
    1,
  );
}

/**
 * The folders from `root` down to the folder holding `file` (both paths with `/`), outermost
 * first: `folderChain("routes", "routes/api/status.ts")` → `["routes", "routes/api"]`.
 */
export function folderChain(root: string, file: string): string[] {
  const rel = posix.relative(root, posix.dirname(file));
  const out = [root];
  if (rel === "") return out;
  let at = root;
  for (const part of rel.split("/")) {
    at = `${at}/${part}`;
    out.push(at);
  }
  return out;
}
