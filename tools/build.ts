/**
 * `deno task build`: writes `manifest.gen.ts` (every route and island file of `routes/`,
 * `islands/` and `plugins/<id>/{routes,islands}/`), bundles the islands with the boot script
 * into `static/_islands/` and joins the plugins' `plugins/<id>/styles.css` into
 * `static/_islands/plugins.css`. The servers only serve what it wrote; `npm install` (postinstall),
 * the test runner, `deno task bundle` and CI run it.
 *
 * Usage: `deno task build [-- --check] [--static-dir DIR] [--no-manifest]`
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { buildProject, isManifestCurrent, MANIFEST_FILE } from "../lib/http/mod.ts";
import { parseOptions } from "../lib/args.ts";
import { messageOf } from "../lib/error.ts";
import { print, printError } from "../lib/log.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const USAGE = `Usage: deno task build [-- options]
  (no options)       write ${MANIFEST_FILE}, bundle the islands and join the plugins'
                     stylesheets into static/_islands/
  --check            only check that ${MANIFEST_FILE} lists every route and island file
  --static-dir DIR   bundle the islands into DIR/_islands/ instead (the bundle's dist/static)
  --no-manifest      leave ${MANIFEST_FILE} as it is
  -h, --help         show this help`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseOptions({
    args: argv,
    options: {
      check: { type: "boolean", default: false },
      "static-dir": { type: "string" },
      "no-manifest": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    print(USAGE);
    return 0;
  }
  if (values.check) {
    if (await isManifestCurrent(ROOT)) return 0;
    printError(`build: ${MANIFEST_FILE} is stale: run 'deno task build'`);
    return 1;
  }
  const result = await buildProject(ROOT, {
    staticDir: values["static-dir"] === undefined ? undefined : resolve(values["static-dir"]),
    manifest: !values["no-manifest"],
  });
  const { files, islands, styles } = result;
  print(
    `build: ${files.routes.length} route files, ${islands.islands.length} islands ` +
      `(${islands.files.length} bundle files), ${styles.length} plugin stylesheets ` +
      `in ${Math.round(islands.ms)} ms` +
      (result.manifestChanged ? `; ${MANIFEST_FILE} updated` : ""),
  );
  return 0;
}

if (import.meta.main) {
  const argv = Deno.args.filter((a, i) => !(i === 0 && a === "--"));
  try {
    Deno.exit(await main(argv));
  } catch (err) {
    printError(`build: error: ${messageOf(err)}`);
    Deno.exit(1);
  }
}
