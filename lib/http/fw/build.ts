/**
 * The build (`deno task build`): the manifest (`./crawl.ts`), then the island bundles: esbuild
 * bundles the boot script and every island into one folder (ESM, code splitting, minified).
 * Entry files keep their names (`boot.js`, `Chart.js`); shared chunks carry a content hash
 * (`chunk-XXXX.js`), so they can be cached for ever. Standalone modules
 * (`lib/shared/standalone/<name>.ts`) are bundled each on its own into `<name>.js`, sharing no
 * chunk, for code the islands load by URL (a chart type's parts of chart.js). The servers only
 * serve what it wrote.
 *
 * esbuild is loaded only when a build runs; no server imports this module.
 *
 * @module
 */
import { join } from "node:path";
import { crawlProject, type ProjectFiles, writeManifest } from "./crawl.ts";
import { ISLANDS_DIR } from "./bundles.ts";
import { islandName } from "./islands.ts";

/** Options of {@linkcode buildIslands}. */
export interface BuildOptions {
  /** The islands to bundle: entry name (`Chart`) → module path (`islands/Chart.tsx`). */
  islands: Record<string, string>;
  /** Output folder (emptied first). */
  outDir: string;
  /** The boot script. @default {@linkcode BOOT_FILE} */
  bootFile?: string;
  /** Minify the output. @default true */
  minify?: boolean;
  /**
   * Modules bundled each on its own (no chunk shared with anything): name (`chart_line`) →
   * module path. @default {}
   */
  standalone?: Record<string, string>;
}

/** What a build wrote. */
export interface BuildResult {
  /** Output files relative to `outDir`, with their sizes in bytes. */
  files: { name: string; bytes: number }[];
  /** The island names (entry names without `boot`). */
  islands: string[];
  ms: number;
}

/** The boot script shipped with this module. */
export const BOOT_FILE = new URL("./boot_client.ts", import.meta.url).pathname;

/**
 * Builds the islands into `outDir` (removed first, since esbuild leaves stale chunks).
 *
 * @example
 * ```ts ignore
 * import { buildIslands } from "./build.ts";
 * const result = await buildIslands({
 *   islands: { Chart: "islands/Chart.tsx" },
 *   outDir: "static/_islands",
 * });
 * console.log(result.files);
 * ```
 */
export async function buildIslands(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const entryPoints: Record<string, string> = { boot: options.bootFile ?? BOOT_FILE };
  for (const [name, file] of Object.entries(options.islands)) {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
      throw new TypeError(`Cannot build island '${name}': use a PascalCase name`);
    }
    entryPoints[name] = file;
  }
  await Deno.remove(options.outDir, { recursive: true }).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  await Deno.mkdir(options.outDir, { recursive: true });
  const standalone = options.standalone ?? {};
  for (const name of Object.keys(standalone)) {
    if (!/^[a-z][a-z0-9_]*$/.test(name) || name === "boot") {
      throw new TypeError(`Cannot build standalone module '${name}': use a snake_case name`);
    }
  }
  const esbuild = await import("esbuild");
  const common = {
    bundle: true,
    format: "esm",
    minify: options.minify ?? true,
    jsx: "automatic",
    jsxImportSource: "preact",
    platform: "browser",
    target: "es2022",
    outdir: options.outDir,
    entryNames: "[name]",
    legalComments: "none",
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  } as const;
  try {
    await esbuild.build({ ...common, entryPoints, splitting: true, chunkNames: "chunk-[hash]" });
    if (Object.keys(standalone).length > 0) {
      await esbuild.build({ ...common, entryPoints: standalone, splitting: false });
    }
  } finally {
    await esbuild.stop();
  }
  const out: { name: string; bytes: number }[] = [];
  for await (const e of Deno.readDir(options.outDir)) {
    if (e.isFile) {
      out.push({ name: e.name, bytes: (await Deno.stat(join(options.outDir, e.name))).size });
    }
  }
  out.sort((a, b) => a.name.localeCompare(b.name));
  return {
    files: out,
    islands: Object.keys(entryPoints).filter((n) => n !== "boot"),
    ms: performance.now() - started,
  };
}

/** The folder of a project's standalone browser modules. */
export const STANDALONE_DIR = "lib/shared/standalone";

/** A project's standalone modules (`lib/shared/standalone/<name>.ts`): name → absolute path. */
export async function standaloneEntries(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  try {
    for await (const e of Deno.readDir(join(root, STANDALONE_DIR))) {
      const m = /^([a-z][a-z0-9_]*)\.ts$/.exec(e.name);
      if (e.isFile && m) out[m[1]!] = join(root, STANDALONE_DIR, e.name);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out;
}

/** The island entries of a project: name → absolute path. */
export function islandEntries(root: string, files: ProjectFiles): Record<string, string> {
  return Object.fromEntries(files.islands.map((f) => [islandName(f), join(root, f)]));
}

/** Options of {@linkcode buildProject}. */
export interface ProjectBuildOptions {
  /** The static folder receiving `_islands/`. @default `<root>/static` */
  staticDir?: string;
  /** Write `manifest.gen.ts`. @default true */
  manifest?: boolean;
  /** Minify the bundles. @default true */
  minify?: boolean;
}

/** What {@linkcode buildProject} did. */
export interface ProjectBuildResult {
  files: ProjectFiles;
  /** Whether `manifest.gen.ts` was rewritten. */
  manifestChanged: boolean;
  islands: BuildResult;
}

/**
 * Crawls the project, writes its manifest and bundles its islands (and its standalone modules)
 * into `<staticDir>/_islands/`.
 *
 * @example
 * ```ts ignore
 * import { buildProject } from "./build.ts";
 * const { islands } = await buildProject(Deno.cwd());
 * console.log(islands.islands);
 * ```
 */
export async function buildProject(
  root: string,
  options: ProjectBuildOptions = {},
): Promise<ProjectBuildResult> {
  const files = await crawlProject(root);
  const manifestChanged = options.manifest === false ? false : await writeManifest(root, files);
  const islands = await buildIslands({
    islands: islandEntries(root, files),
    outDir: join(options.staticDir ?? join(root, "static"), ISLANDS_DIR),
    minify: options.minify,
    standalone: await standaloneEntries(root),
  });
  return { files, manifestChanged, islands };
}
