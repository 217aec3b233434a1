/**
 * Entry of `deno task webapp`: the web dashboard (pages, control API, data API, live events)
 * and the plugin host in one server. Binds 127.0.0.1 by default and answers only to the names
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
import { withoutLeadingDashDash } from "./lib/args.ts";
import { resolveInvocation } from "./lib/cli/invocation.ts";
import { connect, lmsFor } from "./lib/bench/connect.ts";
import { BenchmarkController } from "./lib/control/controller.ts";
import type { DashboardServices } from "./lib/control/services.ts";
import { parseWebArgs, WEBAPP_USAGE } from "./lib/control/web_args.ts";
import { type Config, type EnvReader, processEnv, resolvePaths } from "./lib/config/mod.ts";
import { exitCodeOf, messageOf, UsageError } from "./lib/error.ts";
import { isFileSync } from "./lib/fs.ts";
import { listenHostNames, parseHostList } from "./lib/http/host_allow.ts";
import { assertUsableToken, randomToken } from "./lib/http/security.ts";
import { isLoopback } from "./lib/net.ts";
import { assertIslandsBuilt, createWebServer } from "./lib/web/server.ts";
import {
  createHost,
  type Host,
  HOST_ENV_VARS,
  isHostCommand,
  pluginEnvVars,
  resolveHostPaths,
  runHostCommand,
} from "./lib/host/mod.ts";
import type { PluginDescriptor } from "./lib/host/plugin.ts";
import { createLogger, type Logger, print, printError } from "./lib/log.ts";
import type { Backend } from "./lib/modelserver/backend.ts";
import { createBackend } from "./lib/modelserver/factory.ts";
import { ResultsStore } from "./lib/store/mod.ts";
import { plugins as registryPlugins } from "./plugins/registry.ts";
import { manifest } from "./manifest.gen.ts";

const at = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/**
 * The `static/` folder beside this module: the project's `static/` from source, `dist/static/`
 * from the bundle (`dist/webapp.js`).
 */
export const STATIC_DIR: string = at("./static");

/** Options of {@linkcode createWebApp}. */
export interface WebAppOptions {
  /** Environment (paths, token). @default the process environment */
  env?: EnvReader;
  /** Listen address (decides whether the token is required). @default "127.0.0.1" */
  hostname?: string;
  /** The token; `LOCALBENCH_WEB_TOKEN`, else generated, when none is given. @default null */
  token?: string | null;
  /** Host names answered besides the listen address's (and `LOCALBENCH_ALLOWED_HOSTS`). */
  allowedHosts?: string[];
  /** Default benchmark arguments of every run. @default [] */
  baseArgs?: string[];
  /** Connects to the model server. @default connect() without `lms` */
  connect?: (config: Config) => Promise<Backend>;
  /** Terminates the process after `POST /api/system/shutdown`. @default SIGTERM to itself */
  exit?: () => void;
  /** Delay between the shutdown answer and `exit`. @default 500 */
  shutdownDelayMs?: number;
  /** Hosted plugins; null for none (`--no-plugins`). @default plugins/registry.ts */
  plugins?: PluginDescriptor[] | null;
  /** Static folder. @default STATIC_DIR */
  staticDir?: string;
  logger?: Logger;
}

/** A web app ready to serve. */
export interface WebApp {
  fetch: (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response>;
  controller: BenchmarkController;
  store: ResultsStore;
  host: Host | null;
  /** The token (shutdown always; every dashboard route when {@linkcode WebApp.tokenEverywhere}). */
  token: string;
  /** Whether the token was generated at start (print it). */
  tokenGenerated: boolean;
  /** Whether every dashboard route needs the token (bound beyond loopback). */
  tokenEverywhere: boolean;
  /** Stops the benchmark and the plugin host, closes the store. */
  close(): Promise<void>;
}

/** Builds the dashboard, its services and the plugin host. */
export async function createWebApp(options: WebAppOptions = {}): Promise<WebApp> {
  const env = options.env ?? processEnv;
  const paths = resolvePaths(env);
  const logger = options.logger ?? createLogger("localbench.web");
  const staticDir = options.staticDir ?? STATIC_DIR;
  const hostname = options.hostname ?? "127.0.0.1";
  const tokenEverywhere = !isLoopback(hostname);
  const envToken = env("LOCALBENCH_WEB_TOKEN");
  const configured = options.token ?? envToken ?? null;
  const token = configured === null ? randomToken() : assertUsableToken(
    configured,
    options.token === undefined || options.token === null ? "LOCALBENCH_WEB_TOKEN" : "--token",
  );
  const allowedHosts = listenHostNames(hostname, {
    extra: [...(options.allowedHosts ?? []), ...parseHostList(env("LOCALBENCH_ALLOWED_HOSTS"))],
  });
  await assertIslandsBuilt(manifest, staticDir);
  await Deno.mkdir(paths.dataDir, { recursive: true });
  const store = ResultsStore.open(paths.database);
  if (store.interrupted > 0) {
    logger.info(
      `${store.interrupted} result(s) left running by an ended process marked interrupted`,
    );
  }
  const controller = new BenchmarkController({
    store,
    baseArgs: options.baseArgs ?? [],
    resolve: (argv) => resolveInvocation(argv, { env }),
    connect: options.connect ??
      ((config) =>
        connect(config, { createBackend, lms: lmsFor(config), note: (m) => logger.info(m) })),
  });
  const exit = options.exit ?? (() => Deno.kill(Deno.pid, "SIGTERM"));
  const services: DashboardServices = {
    controller,
    store,
    paths,
    tokenRequired: tokenEverywhere,
    now: () => new Date(),
    async shutdown() {
      await controller.shutdown();
      setTimeout(exit, options.shutdownDelayMs ?? 500);
    },
  };
  const plugins = options.plugins === undefined ? registryPlugins : options.plugins;
  let host: Host | null = null;
  if (plugins !== null) {
    const names = [...HOST_ENV_VARS, ...pluginEnvVars(plugins)];
    const hostEnv: Record<string, string> = {};
    for (const n of names) {
      const v = env(n);
      if (v !== undefined) hostEnv[n] = v;
    }
    host = createHost({
      plugins,
      env: hostEnv,
      dataDir: paths.dataDir,
      configDir: paths.configDir,
      allowedHosts,
    });
  }
  const app = createWebServer({
    manifest,
    staticDir,
    allowedHosts,
    dashboard: { services, token, everywhere: tokenEverywhere },
    host,
    logger,
  });
  return {
    fetch: (req, info) => app.fetch(req, info),
    controller,
    store,
    host,
    token,
    tokenGenerated: configured === null,
    tokenEverywhere,
    async close() {
      await controller.shutdown();
      await host?.stop();
      store.close();
    },
  };
}

export { parseWebArgs, WEBAPP_USAGE };

/** `--dev`: builds now, then again on every change of the page sources. */
async function startDevBuild(): Promise<{ close(): void }> {
  if (!isFileSync(at("./routes/_app.tsx"))) {
    throw new UsageError("Cannot use --dev here: the sources of the pages are not beside it");
  }
  const { watchProject } = await import("./lib/http/fw/dev.ts");
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
    const hostEnv = Object.fromEntries(
      HOST_ENV_VARS.flatMap((n) => (Deno.env.get(n) === undefined ? [] : [[n, Deno.env.get(n)!]])),
    );
    const readStdin = () => new Response(Deno.stdin.readable).text();
    await runHostCommand(argv, {
      configFile: resolveHostPaths(hostEnv).configFile,
      readStdin,
      print,
    });
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
    plugins: args.plugins ? undefined : null,
  });
  const adminKey = web.host ? (await web.host.start()).adminKey : null;
  const server = Deno.serve(
    { hostname: args.hostname, port: args.port, onListen: () => {} },
    (req, info) => web.fetch(req, info),
  );
  const shown = args.hostname.includes(":") ? `[${args.hostname}]` : args.hostname;
  const url = `http://${shown}:${server.addr.port}/`;
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
  dev?.close();
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
