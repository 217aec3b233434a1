/**
 * The build (`deno task build`): the manifest (`./crawl.ts`), then the island bundles: esbuild
 * bundles the boot script and every island into one folder (ESM, code splitting, minified).
 * Entry files keep their names (`boot.js`, `Chart.js`); shared chunks carry a content hash
 * (`chunk-XXXX.js`), so they can be cached for ever. The servers only serve what it wrote.
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
  const esbuild = await import("esbuild");
  try {
    await esbuild.build({
      entryPoints,
      bundle: true,
      splitting: true,
      format: "esm",
      minify: options.minify ?? true,
      jsx: "automatic",
      jsxImportSource: "preact",
      platform: "browser",
      target: "es2022",
      outdir: options.outDir,
      entryNames: "[name]",
      chunkNames: "chunk-[hash]",
      legalComments: "none",
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
    });
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
 * Crawls the project, writes its manifest and bundles its islands into
 * `<staticDir>/_islands/`.
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
  });
  return { files, manifestChanged, islands };
}
