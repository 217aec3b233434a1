/**
 * The build (`deno task build`): the manifest (`./crawl.ts`), then the island bundles: esbuild
 * bundles the boot script and every island into one folder (ESM, code splitting, minified).
 * Entry files keep their names (`boot.js`, `Chart.js`, a plugin's `temp_eta/Panel.js`); shared
 * chunks carry a content hash (`chunk-XXXX.js`), so they can be cached for ever. The plugins'
 * stylesheets (`plugins/<id>/styles.css`) are joined into `plugins.css` beside them. Standalone modules
 * (`lib/shared/standalone/<name>.ts`) are bundled each on its own into `<name>.js`, sharing no
 * chunk, for code the islands load by URL (a chart type's parts of chart.js). The servers only
 * serve what it wrote.
 *
 * esbuild is loaded only when a build runs; no server imports this module.
 *
 * @module
 */
import { join } from "node:path";
import { crawlProject, pluginFolders, type ProjectFiles, writeManifest } from "./crawl.ts";
import { ISLANDS_DIR } from "./bundles.ts";
import { ISLAND_NAME, islandName } from "./islands.ts";

/** Options of {@linkcode buildIslands}. */
export interface BuildOptions {
  /** The islands to bundle: entry name (`Chart`, `temp_eta/Panel`) → module path. */
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
  /** Output files relative to `outDir` (with `/`), with their sizes in bytes. */
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
    if (!ISLAND_NAME.test(name)) {
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
    entryNames: "[dir]/[name]",
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
  const list = async (dir: string) => {
    for await (const e of Deno.readDir(join(options.outDir, dir))) {
      const name = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory) await list(name);
      else out.push({ name, bytes: (await Deno.stat(join(options.outDir, name))).size });
    }
  };
  await list("");
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
  /** The plugins' stylesheets joined into `plugins.css` (`plugins/<id>/styles.css`). */
  styles: string[];
}

/** The plugins' stylesheets joined, beside the bundles (`/_islands/plugins.css`). */
export const PLUGIN_STYLES = "plugins.css";

/**
 * Joins every plugin's `plugins/<id>/styles.css` of `root` (in id order, each after a comment
 * naming its file) into `<outDir>/plugins.css`; returns the files joined.
 */
export async function buildPluginStyles(root: string, outDir: string): Promise<string[]> {
  const files: string[] = [];
  const parts: string[] = [];
  for (const id of await pluginFolders(root)) {
    const file = `plugins/${id}/styles.css`;
    try {
      parts.push(`/* ${file} */\n${await Deno.readTextFile(join(root, file))}`);
      files.push(file);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  await Deno.writeTextFile(join(outDir, PLUGIN_STYLES), parts.join("\n"));
  return files;
}

/**
 * Crawls the project, writes its manifest, bundles its islands (and its standalone modules)
 * and joins its plugins' stylesheets into `<staticDir>/_islands/`.
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
  const outDir = join(options.staticDir ?? join(root, "static"), ISLANDS_DIR);
  const islands = await buildIslands({
    islands: islandEntries(root, files),
    outDir,
    minify: options.minify,
    standalone: await standaloneEntries(root),
  });
  return { files, manifestChanged, islands, styles: await buildPluginStyles(root, outDir) };
}
