/**
 * The PDF report's copy of pdfkit as one ES module, written by `deno task build` to
 * {@linkcode PDFKIT_BUNDLE} (lib/reports/pdfkit.ts loads it, else the npm package): pdfkit,
 * fontkit and their packages in one file with Node's built-ins left as `node:` imports.
 *
 * Why: loading the package is most of a report's CPU (`perf/reports.ts`). One file spares
 * Deno's resolution and CommonJS loading of some 40 modules, and V8 caches its compiled code.
 * And what a report never uses is made on first use instead of at load: fontkit's Brotli decoder
 * (WOFF2 fonts only; it decodes a 120 kB dictionary), pdfkit's AES (encrypted PDFs only; its
 * tables) and fontkit's three shaper tries (Arabic, Indic, Universal: the report's fonts carry
 * no layout tables, so no shaper runs). The code is the packages' own; the three tries' statements
 * are deferred as they are. Importing the package takes 0.18–0.20 s of CPU, this build 0.13 s.
 *
 * @module
 */
import { isBuiltin } from "node:module";
import { join } from "node:path";

/** The bundle's path below the project root (`.cache/` is ignored by git, fmt and lint). */
export const PDFKIT_BUNDLE = ".cache/build/pdfkit.js";

const LAZY = "localbench-lazy";

/** fontkit 2's three shaper tries, each `const <name> = new (0, <UnicodeTrie>)(<data>);`. */
const LAZY_TRIE = /^const (\$\w+\$var\$trie) = new \(0, (\$\w+\$unicodetrie)\)\((.*)\);$/gm;
const SHAPER_TRIES = 3;
const LAZY_TRIE_FN = "localbenchLazyTrie";
/** A trie made on its first `get()` (the shapers call nothing else on it). */
const LAZY_TRIE_SOURCE = `function ${LAZY_TRIE_FN}(make) {
  let trie = null;
  return { get: (codePoint) => (trie ??= make()).get(codePoint) };
}`;
/**
 * Modules required on their first call instead of at load, each by a stand-in with the same
 * exports: fontkit's Brotli decoder (WOFF2 fonts only; it decodes its 120 kB dictionary at load)
 * and pdfkit's AES (encrypted PDFs only; it computes its tables at load).
 */
const DEFERRED: Record<string, string> = {
  "brotli/decompress.js": `module.exports = function (buffer, size) {
    return require("brotli/decompress.js")(buffer, size);
  };`,
  "@noble/ciphers/aes":
    `export function cbc(...args) { return require("@noble/ciphers/aes").cbc(...args); }
  export function ecb(...args) { return require("@noble/ciphers/aes").ecb(...args); }`,
};

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
          // An import of a DEFERRED module gets its stand-in; the stand-in's own require() gets
          // the module, bundled as it is.
          build.onResolve(
            { filter: /^(brotli\/decompress\.js|@noble\/ciphers\/aes)$/ },
            (args) =>
              args.namespace === LAZY ? undefined : {
                path: args.path,
                namespace: LAZY,
                pluginData: { resolveDir: args.resolveDir },
              },
          );
          // fontkit's shapers (Arabic, Indic, Universal) each decode a Unicode trie at load; the
          // report's fonts have no layout tables, so no shaper runs: each trie is made on its
          // first lookup instead (the same statement, deferred).
          build.onLoad({ filter: /[\\/]fontkit[\\/]dist[\\/]module\.mjs$/ }, async (args) => {
            const source = await Deno.readTextFile(args.path);
            const lazy = source.replaceAll(
              LAZY_TRIE,
              (_, name: string, trie: string, data: string) =>
                `const ${name} = ${LAZY_TRIE_FN}(() => new (0, ${trie})(${data}));`,
            );
            const count = (lazy.match(new RegExp(LAZY_TRIE_FN, "g")) ?? []).length;
            if (count !== SHAPER_TRIES) {
              throw new Error(`fontkit's shaper tries: ${count} found, ${SHAPER_TRIES} expected`);
            }
            return { contents: `${LAZY_TRIE_SOURCE}\n${lazy}`, loader: "js" };
          });
          build.onLoad({ filter: /.*/, namespace: LAZY }, (args) => ({
            contents: DEFERRED[args.path]!,
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
