/**
 * The one reader of the import graph, Deno's own: `deno info --json` gives every module's imports
 * as Deno resolves them (import map, `import type`, re-exports, `import()`; comments are not code).
 * `tools/check_mod_rule.ts`, `tests/boundaries_test.ts` and the tests of what a program loads at
 * start read it from here.
 *
 * `deno info` takes one root, so the files are handed to it as one generated entry (a `data:` URL
 * importing each): the whole repository is one run of about 1 s, where a run per file takes
 * minutes (about 0.2 s each for some 800 files).
 *
 * @module
 */
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** One import of a module, as Deno resolved it. */
export interface ModuleImport {
  /** The specifier as written. */
  specifier: string;
  /**
   * What it names: a file below the root as a root-relative `/`-separated path, anything else
   * as its resolved specifier (`npm:/hono@4.13.19`, `node:path`, a `file:` URL outside the root).
   */
  target: string;
  /** 1-based line of the specifier (the first, when a module names it twice). */
  line: number;
  /** `import("…")`: loaded when the code runs, not before. */
  dynamic: boolean;
  /** `import type`: nothing is loaded. */
  typeOnly: boolean;
}

/** The imports of every module the roots reach, by module (a root-relative path for a file). */
export type ImportGraph = Map<string, ModuleImport[]>;

/** Files and npm packages a program loads before any of its code runs. */
export interface StaticGraph {
  /** Root-relative paths, sorted. */
  files: string[];
  /** Package names, sorted. */
  npm: string[];
}

interface Span {
  start: { line: number };
}

interface InfoDependency {
  specifier: string;
  code?: { specifier?: string; span: Span };
  type?: { specifier?: string; span: Span };
  isDynamic?: boolean;
}

interface Info {
  modules: { specifier: string; dependencies?: InfoDependency[] }[];
  redirects: Record<string, string>;
}

/** Folders never read: dependencies, build output, coverage, logs. */
const SKIP_DIRS = new Set(["node_modules", "dist", "cov", "logs", "test-artifacts", "_islands"]);

/** Files per `deno info` run: keeps the generated entry well below the 128 KiB argument limit. */
const CHUNK = 400;

/** The TypeScript files below `root` (relative paths), build output and dependencies left out. */
export function sourceFiles(root: string, dir = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(root, dir))) {
    const path = dir === "" ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory) {
      if (!e.name.startsWith(".") && !SKIP_DIRS.has(e.name)) out.push(...sourceFiles(root, path));
    } else if (e.isFile && /\.(ts|tsx)$/.test(e.name)) out.push(path);
  }
  return out;
}

async function denoInfo(root: string, files: readonly string[]): Promise<Info> {
  const urls = files.map((f) => pathToFileURL(join(root, f)).href);
  // A data: URL is percent-decoded once: the file URLs' own escapes must survive that.
  const entry = urls.length === 1
    ? urls[0]!
    : `data:application/typescript,${
      urls.map((u) => `import "${u}";`).join("").replaceAll("%", "%25")
    }`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.code === 0 ? out.stdout : out.stderr);
  if (out.code !== 0) throw new Error(`deno info failed: ${text.trim()}`);
  return JSON.parse(text) as Info;
}

/** The import graph of `files` (paths relative to `root`) and of everything they import. */
export async function readImportGraph(
  root: string,
  files: readonly string[],
): Promise<ImportGraph> {
  const chunks: string[][] = [];
  for (let i = 0; i < files.length; i += CHUNK) chunks.push(files.slice(i, i + CHUNK));
  const infos = await Promise.all(chunks.map((c) => denoInfo(root, c)));
  const name = (specifier: string, redirects: Record<string, string>) => {
    const resolved = redirects[specifier] ?? specifier;
    if (!resolved.startsWith("file:")) return resolved;
    const path = relative(root, fileURLToPath(resolved)).replaceAll("\\", "/");
    return path.startsWith("../") ? resolved : path;
  };
  const graph: ImportGraph = new Map();
  for (const info of infos) {
    for (const m of info.modules) {
      if (m.specifier.startsWith("data:")) continue;
      const imports = (m.dependencies ?? []).map((d): ModuleImport => {
        const lines = [d.code?.span, d.type?.span].filter((s) => s !== undefined);
        return {
          specifier: d.specifier,
          target: name(d.code?.specifier ?? d.type?.specifier ?? d.specifier, info.redirects),
          line: Math.min(...lines.map((s) => s.start.line)) + 1,
          dynamic: d.isDynamic === true,
          typeOnly: d.code === undefined,
        };
      });
      graph.set(name(m.specifier, info.redirects), imports.sort((a, b) => a.line - b.line));
    }
  }
  return graph;
}

/** What loading `entry` loads before any code runs: static imports, types and `import()` left out. */
export function staticClosure(graph: ImportGraph, entry: string): StaticGraph {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const module = queue.pop()!;
    if (seen.has(module)) continue;
    seen.add(module);
    for (const i of graph.get(module) ?? []) if (!i.dynamic && !i.typeOnly) queue.push(i.target);
  }
  const files = [...seen].filter((s) => !/^[a-z]+:/.test(s));
  const npm = [...seen].map((s) => /^npm:\/?((?:@[^/@]+\/)?[^/@]+)/.exec(s)?.[1]);
  return { files: files.sort(), npm: [...new Set(npm.filter((n) => n !== undefined))].sort() };
}

/** {@linkcode staticClosure} of one program (a path relative to `root`). */
export async function staticGraph(root: string, entry: string): Promise<StaticGraph> {
  return staticClosure(await readImportGraph(root, [entry]), entry);
}
