/**
 * `deno task build`: writes `manifest.gen.ts` (every route and island file of `routes/`,
 * `islands/` and `plugins/<id>/{routes,islands}/`) and bundles the islands with the boot script
 * into `static/_islands/`. The servers only serve what it wrote; `npm install` (postinstall),
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
import { exitCodeOf, messageOf } from "../lib/error.ts";
import { print, printError } from "../lib/log.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const USAGE = `Usage: deno task build [-- options]
  (no options)       write ${MANIFEST_FILE} and bundle the islands into static/_islands/
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
  const { files, islands } = result;
  print(
    `build: ${files.routes.length} route files, ${islands.islands.length} islands ` +
      `(${islands.files.length} bundle files) in ${Math.round(islands.ms)} ms` +
      (result.manifestChanged ? `; ${MANIFEST_FILE} updated` : ""),
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
