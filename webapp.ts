/**
 * Entry of `deno task webapp`: the web dashboard (pages, control API, data API, live events)
 * and the plugin host in one server (composed by `app/web_app.ts`; this script parses its arguments,
 * serves it and prints where). Binds 127.0.0.1 by default and answers only to the names
 * of its listen address (plus `--allowed-hosts`). Shutdown always needs the token (`--token`,
 * `LOCALBENCH_WEB_TOKEN`, or one generated and printed at start); bound beyond loopback, every
 * dashboard route needs it (the printed `?token=` link sets a cookie for the browser).
 *
 * Usage: `deno task webapp -- [--port N] [--host H] [--token T] [--no-plugins] [--dev]
 * [benchmark arguments...]` — benchmark arguments (e.g. `--backend rest --base-url URL`) are the
 * defaults of every run started from the page.
 *
 * The pages are the route tree of `manifest.gen.ts`; the islands are served from the bundles
 * `deno task build` wrote into `static/_islands/` (`dist/static/` beside the bundle
 * `dist/webapp.js`): nothing is built at start. `--dev` rebuilds them whenever a source changes.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { createWebApp } from "./app/mod.ts";
import { withoutLeadingDashDash } from "./lib/args.ts";
import { resolveInvocation } from "./lib/cli/mod.ts";
import { parseWebArgs, WEBAPP_USAGE } from "./lib/dashboard/web_args.ts";
import { processEnv } from "./lib/config/mod.ts";
import { exitCodeOf, messageOf, UsageError } from "./lib/error.ts";
import { isFileSync } from "./lib/fs.ts";
import { isHostCommand, runHostCommand } from "./lib/host/mod.ts";
import { serveWithLimits } from "./lib/http/mod.ts";
import { print, printError } from "./lib/log.ts";
import { urlHost } from "./lib/net.ts";

const at = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/**
 * The `static/` folder beside this module: the project's `static/` from source, `dist/static/`
 * from the bundle (`dist/webapp.js`).
 */
export const STATIC_DIR: string = at("./static");

/** `--dev`: builds now, then again on every change of the page sources. */
async function startDevBuild(): Promise<{ close(): Promise<void> }> {
  if (!isFileSync(at("./routes/_app.tsx"))) {
    throw new UsageError("Cannot use --dev here: the sources of the pages are not beside it");
  }
  const { watchProject } = await import("./lib/http/mod.ts");
  return await watchProject(at("./"), {
    onBuild: (r) =>
      print(`dev: built ${r.islands.islands.length} islands in ${Math.round(r.islands.ms)} ms`),
    onError: (err) => printError(`dev: build failed: ${messageOf(err)}`),
  });
}

async function main(rawArgs: string[]): Promise<number> {
  // `deno task webapp -- user add ...` (the README's form) hands over a leading `--`.
  const argv = withoutLeadingDashDash(rawArgs);
  if (isHostCommand(argv)) {
    // Plugin-host accounts: `user add`, `apikey create`, `apikey revoke` (same as `deno task host`).
    await runHostCommand(argv);
    return 0;
  }
  const args = parseWebArgs(argv);
  if (args.help) {
    print(WEBAPP_USAGE);
    return 0;
  }
  const env = processEnv;
  const inv = await resolveInvocation(args.benchArgs, { env });
  if (inv.kind === "help") throw new UsageError("Cannot use --help as a benchmark argument");
  const dev = args.dev ? await startDevBuild() : null;
  const web = await createWebApp({
    env,
    hostname: args.hostname,
    token: args.token,
    allowedHosts: args.allowedHosts,
    baseArgs: args.benchArgs,
    store: inv.paths.database,
    plugins: args.plugins ? undefined : null,
    staticDir: STATIC_DIR,
  });
  const adminKey = web.host ? (await web.host.start()).adminKey : null;
  // Header and body timeouts and a connection cap, which Deno.serve lacks (docs/decisions.md).
  const server = serveWithLimits(
    { hostname: args.hostname, port: args.port },
    (req, info) => web.fetch(req, info),
  );
  const url = `http://${urlHost(args.hostname)}:${server.addr.port}/`;
  print(`Dashboard listening on ${url}`);
  if (web.tokenEverywhere) {
    print(`Every route needs the token: open ${url}?token=${web.token} in a browser`);
  }
  if (web.tokenGenerated) print(`Token (send as X-Localbench-Token): ${web.token}`);
  if (adminKey) print(`Plugin host admin API key (shown once, store it now): ${adminKey}`);
  await web.host?.ready();
  const { promise, resolve } = Promise.withResolvers<void>();
  Deno.addSignalListener("SIGINT", resolve);
  Deno.addSignalListener("SIGTERM", resolve);
  await promise;
  await dev?.close();
  await web.close();
  await server.shutdown();
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (err) {
    printError(`Error: ${messageOf(err)}`);
    Deno.exit(exitCodeOf(err));
  }
}
