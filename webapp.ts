/**
 * Entry of `deno task webapp`: the web dashboard (pages, control API, data API, live events)
 * and the plugin host in one server. Binds 127.0.0.1 by default and answers only to the names
 * of its listen address (plus `--allowed-hosts`). Shutdown always needs the token (`--token`,
 * `LOCALBENCH_WEB_TOKEN`, or one generated and printed at start); bound beyond loopback, every
 * dashboard route needs it (the printed `?token=` link sets a cookie for the browser).
 *
 * Usage: `deno task webapp -- [--port N] [--host H] [--token T] [--no-plugins] [--no-build]
 * [benchmark arguments...]` — benchmark arguments (e.g. `--backend rest --base-url URL`) are the
 * defaults of every run started from the page.
 *
 * From the source tree it builds the islands (the dashboard's and the plugin host pages', one
 * esbuild run into `static/_islands/`) at start; run from its bundle (`dist/webapp.js`, where the
 * island sources are absent) or with `--no-build`, it serves the prebuilt islands of the
 * `static/` folder beside it (`deno task bundle` writes `dist/static/`).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { resolveInvocation } from "./lib/cli/invocation.ts";
import { connect, lmsFor } from "./lib/bench/connect.ts";
import { createDashboardApp, ISLANDS_DIR } from "./lib/control/app.ts";
import { BenchmarkController } from "./lib/control/controller.ts";
import type { DashboardServices } from "./lib/control/services.ts";
import { parseWebArgs, WEBAPP_USAGE } from "./lib/control/web_args.ts";
import { type Config, type EnvReader, processEnv, resolvePaths } from "./lib/config/mod.ts";
import { AppError, exitCodeOf, messageOf } from "./lib/error.ts";
import { isFileSync } from "./lib/fs.ts";
import {
  assertUsableToken,
  buildIslands,
  hasBuild,
  isLoopback,
  listenHostNames,
  parseHostList,
  randomToken,
} from "./lib/http/fw.ts";
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
import App from "./routes/_app.tsx";
import { manifest } from "./routes/_manifest.ts";
import { ISLAND_FILES, islandEntries } from "./routes/_islands.ts";
import { hostUiRoutes } from "./routes/plugins/mod.ts";

const at = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/**
 * The `static/` folder beside this module: the project's `static/` from source, `dist/static/`
 * from the bundle (`dist/webapp.js`).
 */
export const STATIC_DIR: string = at("./static");

/**
 * Whether the islands' sources sit beside this module (run from the source tree); false when
 * run from the bundle, which can only serve the prebuilt islands of its `static/` folder.
 */
export function hasIslandSources(): boolean {
  return Object.values(islandEntries(at("./"))).every(isFileSync);
}

/**
 * Builds every island (the dashboard's and the plugin host pages') and the boot script in one
 * esbuild run into `<staticDir>/_islands/` (emptied first).
 */
export async function buildWebIslands(staticDir: string = STATIC_DIR): Promise<void> {
  await buildIslands({ islands: islandEntries(at("./")), outDir: `${staticDir}/${ISLANDS_DIR}` });
}

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
  /** Build the islands: `true` always, `"if-missing"`, or `false` (serve a prebuilt bundle). */
  build?: boolean | "if-missing";
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
  const build = options.build ?? true;
  const outDir = `${staticDir}/${ISLANDS_DIR}`;
  const built = await hasBuild(outDir, Object.keys(ISLAND_FILES));
  if (build === true || (build === "if-missing" && !built)) {
    await buildWebIslands(staticDir);
  } else if (!built) {
    throw new AppError(500, `Cannot serve the pages: island bundles are missing in ${outDir}`);
  }
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
      beforeAuth: (app, s) =>
        app.route("/", hostUiRoutes({ ...s, logDir: s.paths.logDir, staticRoot: staticDir })),
    });
  }
  const app = createDashboardApp({
    services,
    manifest,
    layout: App,
    staticDir,
    token,
    tokenEverywhere,
    allowedHosts,
    hostApp: host?.app ?? null,
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

async function main(argv: string[]): Promise<number> {
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
  if (inv.kind === "help") throw new AppError(400, "Cannot use --help as a benchmark argument");
  const web = await createWebApp({
    env,
    hostname: args.hostname,
    token: args.token,
    allowedHosts: args.allowedHosts,
    baseArgs: args.benchArgs,
    plugins: args.plugins ? undefined : null,
    // From the bundle the sources are absent: serve the prebuilt islands beside it.
    build: args.build && hasIslandSources(),
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
