/**
 * The paths the plugin host answers, derived from the routes it registered (so a new route of
 * the host or a plugin is found without a list to keep): a route's path up to its first
 * parameter or wildcard, and every path below a plugin's route base. The web app hands these
 * paths to the host before its own routes.
 *
 * @module
 */

/** A registered route as Hono lists it (`app.routes`). */
export interface RegisteredRoute {
  method: string;
  path: string;
}

/**
 * A matcher of the paths a set of routes answers: exact static paths, and everything below the
 * static part of a path with parameters and below each of `bases`. Middleware (`ALL`) is left
 * out.
 *
 * @example
 * ```ts
 * import { servedPaths } from "./paths_served.ts";
 * const handles = servedPaths(
 *   [{ method: "GET", path: "/api/settings" }, { method: "DELETE", path: "/api/settings/plugins/:id" }],
 *   ["/plugin/logmonitor"],
 * );
 * if (!handles("/api/settings/plugins/x") || !handles("/plugin/logmonitor/files")) throw new Error();
 * if (handles("/api/status") || handles("/api/settingsx")) throw new Error("not the host's");
 * ```
 */
export function servedPaths(
  routes: readonly RegisteredRoute[],
  bases: readonly string[],
): (path: string) => boolean {
  const exact = new Set<string>();
  const below = new Set<string>(bases.map((b) => b.replace(/\/+$/, "")));
  for (const r of routes) {
    if (r.method === "ALL") continue;
    const parts = r.path.split("/");
    const dynamic = parts.findIndex((p) => p.startsWith(":") || p.includes("*"));
    if (dynamic === -1) exact.add(r.path.replace(/\/+$/, "") || "/");
    else below.add(parts.slice(0, dynamic).join("/"));
  }
  for (const b of below) exact.add(b);
  return (path) => {
    if (exact.has(path)) return true;
    for (const b of below) if (path.startsWith(`${b}/`)) return true;
    return false;
  };
}
