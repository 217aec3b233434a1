/**
 * The PDF report's copy of pdfkit as one ES module, written by `deno task build` to
 * {@linkcode PDFKIT_BUNDLE} (lib/reports/pdfkit.ts loads it, else the npm package): pdfkit,
 * fontkit and their packages in one file with Node's built-ins left as `node:` imports.
 *
 * Why: loading the package is most of a report's CPU (`perf/reports.ts`). One file spares
 * Deno's resolution and CommonJS loading of some 40 modules, and V8 caches its compiled code; and
 * here fontkit's Brotli decoder (its 120 kB dictionary decoded at load, used only by WOFF2 fonts,
 * never by the report's TrueType fonts) is required on first use instead of at load. The code is
 * the packages' own, unchanged.
 *
 * @module
 */
import { isBuiltin } from "node:module";
import { join } from "node:path";

/** The bundle's path below the project root (`.cache/` is ignored by git, fmt and lint). */
export const PDFKIT_BUNDLE = ".cache/build/pdfkit.js";

const LAZY = "localbench-lazy";
const BROTLI = "brotli/decompress.js";

/**
 * Writes the bundle of the `pdfkit` that `root` resolves into `root/.cache/build/pdfkit.js`
 * (atomically); returns its size and the time taken.
 */
export async function buildPdfkitBundle(root: string): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  const esbuild = await import("esbuild");
  const out = join(root, PDFKIT_BUNDLE);
  const tmp = `${out}.${Deno.pid}.tmp`;
  await Deno.mkdir(join(root, ".cache", "build"), { recursive: true });
  try {
    await esbuild.build({
      stdin: { contents: 'export { default } from "pdfkit";', resolveDir: root, loader: "js" },
      bundle: true,
      format: "esm",
      platform: "node",
      target: "es2022",
      outfile: tmp,
      legalComments: "none",
      logLevel: "silent",
      plugins: [{
        name: "localbench-pdfkit",
        setup(build) {
          // Node's built-ins stay imports, named as Deno resolves them.
          build.onResolve({ filter: /^[a-z_/]+$/ }, (args) => {
            const name = args.path.replace(/^node:/, "");
            return isBuiltin(name) ? { path: `node:${name}`, external: true } : undefined;
          });
          // fontkit's import of the Brotli decoder becomes a function that requires it on first
          // call; the decoder itself is bundled as it is.
          build.onResolve(
            { filter: /^brotli\/decompress\.js$/ },
            (args) =>
              args.namespace === LAZY ? undefined : {
                path: BROTLI,
                namespace: LAZY,
                pluginData: { resolveDir: args.resolveDir },
              },
          );
          build.onLoad({ filter: /.*/, namespace: LAZY }, (args) => ({
            contents: `module.exports = function (buffer, size) {
              return require(${JSON.stringify(BROTLI)})(buffer, size);
            };`,
            loader: "js",
            resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
          }));
        },
      }],
    });
    await Deno.rename(tmp, out);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  } finally {
    await esbuild.stop();
  }
  return { bytes: (await Deno.stat(out)).size, ms: performance.now() - started };
}
