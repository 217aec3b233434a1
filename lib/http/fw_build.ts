/**
 * The island build: esbuild bundles the boot script and every island into one folder (ESM,
 * code splitting, minified). Entry files keep their names (`boot.js`, `Chart.js`); shared chunks
 * carry a content hash (`chunk-XXXX.js`), so they can be cached for ever.
 *
 * esbuild is loaded only when a build runs, so a server that merely imports this module (the
 * plugin host's permission-scoped child) never loads it. Building needs permission to run
 * esbuild's binary: do it from a build step or a launcher, not from a permission-scoped server.
 *
 * @module
 */
import { join } from "node:path";

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
export const BOOT_FILE = new URL("./fw_boot_client.ts", import.meta.url).pathname;

/**
 * Builds the islands into `outDir` (removed first, since esbuild leaves stale chunks).
 *
 * @example
 * ```ts ignore
 * import { buildIslands } from "./fw_build.ts";
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

/**
 * Whether `outDir` already holds a build: its boot script and the bundle of each of `islands`
 * (entry names) exist.
 *
 * @example
 * ```ts ignore
 * import { hasBuild } from "./fw_build.ts";
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
