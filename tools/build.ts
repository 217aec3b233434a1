/**
 * `deno task build`: writes the generated sources, `manifest.gen.ts` (every route and island
 * file of `routes/`, `islands/` and `plugins/<id>/{routes,islands}/`) and a `<name>.wasm.gen.ts`
 * for every `<name>.wat` (`tools/wat.ts`), bundles the islands with the boot script into
 * `static/_islands/` and joins the plugins' `plugins/<id>/styles.css` into
 * `static/_islands/plugins.css`, and writes the PDF report's one-file pdfkit
 * (`tools/pdfkit_bundle.ts`) to `.cache/build/pdfkit.js`. The servers only serve what it wrote; `npm install`
 * (postinstall), the test runner, `deno task bundle` and CI run it (the runner and the bundle
 * with `--no-manifest`).
 *
 * Usage: `deno task build [-- --check] [--static-dir DIR] [--no-manifest] [--root DIR]`
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { buildProject, isManifestCurrent, MANIFEST_FILE } from "../lib/http/mod.ts";
import { parseOptions } from "../lib/args.ts";
import { exitCodeOf, messageOf } from "../lib/error.ts";
import { print, printError } from "../lib/log.ts";
import { syncWatModules } from "./wat.ts";
import { buildPdfkitBundle, PDFKIT_BUNDLE } from "./pdfkit_bundle.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const USAGE = `Usage: deno task build [-- options]
  (no options)       write ${MANIFEST_FILE} and the *.wasm.gen.ts of the *.wat files,
                     bundle the islands and join the plugins' stylesheets into static/_islands/,
                     bundle pdfkit for the PDF report into .cache/build/pdfkit.js
  --check            only check that those generated files are current (exit 1 if not)
  --static-dir DIR   bundle the islands into DIR/_islands/ instead (the bundle's dist/static)
  --no-manifest      leave the generated files as they are
  --root DIR         the project folder (default: this checkout)
  -h, --help         show this help`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseOptions({
    args: argv,
    options: {
      check: { type: "boolean", default: false },
      "static-dir": { type: "string" },
      "no-manifest": { type: "boolean", default: false },
      root: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    print(USAGE);
    return 0;
  }
  const root = values.root === undefined ? ROOT : resolve(values.root);
  if (values.check) {
    const stale = await syncWatModules(root, false);
    if (!await isManifestCurrent(root)) stale.unshift(MANIFEST_FILE);
    if (stale.length === 0) return 0;
    printError(`build: stale: ${stale.join(", ")} (run 'deno task build')`);
    return 1;
  }
  const generate = !values["no-manifest"];
  const wasmChanged = generate ? await syncWatModules(root, true) : [];
  const result = await buildProject(root, {
    staticDir: values["static-dir"] === undefined ? undefined : resolve(values["static-dir"]),
    manifest: generate,
  });
  const { files, islands, styles } = result;
  const pdfkit = await buildPdfkitBundle(root);
  const updated = [...(result.manifestChanged ? [MANIFEST_FILE] : []), ...wasmChanged];
  print(
    `build: ${files.routes.length} route files, ${islands.islands.length} islands ` +
      `(${islands.files.length} bundle files), ${styles.length} plugin stylesheets ` +
      `in ${Math.round(islands.ms)} ms, ${PDFKIT_BUNDLE} in ${Math.round(pdfkit.ms)} ms` +
      (updated.length > 0 ? `; ${updated.join(", ")} updated` : ""),
  );
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (err) {
    printError(`build: error: ${messageOf(err)}`);
    Deno.exit(exitCodeOf(err));
  }
}
