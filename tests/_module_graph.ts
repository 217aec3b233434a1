/**
 * The static import graph of a module (`deno info --json`, dynamic `import()` and type-only
 * imports left out): what loading it loads before any code runs.
 *
 * @module
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT, runDeno } from "./_helpers.ts";

interface InfoDependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}

interface Info {
  roots: string[];
  modules: { specifier: string; dependencies?: InfoDependency[] }[];
  redirects: Record<string, string>;
}

/** Files of the repository (relative paths) and npm packages a module loads statically. */
export interface StaticGraph {
  files: string[];
  npm: string[];
}

/** The static graph of `entry` (a path relative to the repository). */
export async function staticGraph(entry: string): Promise<StaticGraph> {
  const r = await runDeno(["info", "--json", entry]);
  if (r.code !== 0) throw new Error(`deno info ${entry} failed: ${r.stderr}`);
  const info = JSON.parse(r.stdout) as Info;
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const resolve = (s: string) => info.redirects[s] ?? s;
  const seen = new Set<string>();
  const queue = info.roots.map(resolve);
  while (queue.length > 0) {
    const spec = queue.pop()!;
    if (seen.has(spec)) continue;
    seen.add(spec);
    for (const dep of bySpecifier.get(spec)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) queue.push(resolve(dep.code.specifier));
    }
  }
  const files: string[] = [];
  const npm = new Set<string>();
  for (const spec of seen) {
    if (spec.startsWith("file:")) files.push(relative(REPO_ROOT, fileURLToPath(spec)));
    const m = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)/.exec(spec);
    if (m) npm.add(m[1]!);
  }
  return { files: files.sort(), npm: [...npm].sort() };
}
