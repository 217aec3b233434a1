/**
 * The web app of `deno task webapp`: the dashboard (pages, control API, data API, live events),
 * its services and the plugin host (the plugins of `plugins/registry.ts`) in one fetch handler.
 * The entry script (`webapp.ts`) parses its arguments and serves it; tests and tools build it
 * from here.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import {
  captureMachine,
  machineDeps,
  type Profiler,
  type ResolvedRun,
  type ServerFacts,
} from "../lib/bench/mod.ts";
import type { BenchmarkController } from "../lib/dashboard/controller.ts";
import { localController } from "../lib/dashboard/local_controller.ts";
import type { DashboardServices } from "../lib/dashboard/services.ts";
import {
  type Config,
  type EnvReader,
  processEnv,
  resolvePaths,
  storeLocation,
} from "../lib/config/mod.ts";
import { assertUsableToken, listenHostNames, parseHostList, randomToken } from "../lib/http/mod.ts";
import { isLoopback } from "../lib/net.ts";
import { assertIslandsBuilt, createWebServer } from "../lib/web/server.ts";
import {
  createHost,
  envOf,
  type Host,
  HOST_ENV_VARS,
  type PluginDescriptor,
  pluginEnvVars,
} from "../lib/host/mod.ts";
import { createLogger, type Logger } from "../lib/log.ts";
import type { Backend } from "../lib/modelserver/mod.ts";
import { isPostgresUrl, type MachineRecord, ResultsStore } from "../lib/store/mod.ts";
import { messageOf } from "../lib/error.ts";
import type { FleetService } from "../lib/fleet/mod.ts";
import { plugins as registryPlugins } from "../plugins/registry.ts";
import { manifest } from "../manifest.gen.ts";

/** The repository's `static/` folder (from source; a bundle passes its own). */
export const REPO_STATIC_DIR: string = fileURLToPath(new URL("../static", import.meta.url));

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
  /**
   * The results store: a SQLite file or a `postgres://` URL (`--store`, resolved with the
   * benchmark arguments). @default `$LOCALBENCH_STORE`, else `<data dir>/results.db`
   */
  store?: string;
  /** Default benchmark arguments of every run. @default [] */
  baseArgs?: string[];
  /** Connects to the model server. @default connect() without `lms` */
  connect?: (config: Config) => Promise<Backend>;
  /** The profiler of `--enable-profiling`. @default this machine's (defaultProfiler) */
  profiler?: (inv: ResolvedRun) => Profiler | null;
  /** Captures the machine a benchmark runs on. @default this machine's (captureMachine) */
  machine?: (server: ServerFacts) => Promise<MachineRecord>;
  /** Terminates the process after `POST /api/system/shutdown`. @default SIGTERM to itself */
  exit?: () => void;
  /** Delay between the shutdown answer and `exit`. @default 500 */
  shutdownDelayMs?: number;
  /** Hosted plugins; null for none (`--no-plugins`). @default plugins/registry.ts */
  plugins?: PluginDescriptor[] | null;
  /**
   * Static folder (the entry script passes the one beside it: `dist/static/` in the bundle).
   * @default the repository's `static/`
   */
  staticDir?: string;
  logger?: Logger;
  /**
   * The fleet of agents; closed with the app. @default on a PostgreSQL store, one on that
   * database (none when it cannot start: said in the log); on SQLite, none
   */
  fleet?: FleetService | null;
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
  const staticDir = options.staticDir ?? REPO_STATIC_DIR;
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
  const location = options.store ?? storeLocation(paths, { env });
  const store = ResultsStore.open(location);
  if (store.interrupted > 0) {
    logger.info(
      `${store.interrupted} result(s) left running by an ended process marked interrupted`,
    );
  }
  const controller = localController({
    store,
    env,
    baseArgs: options.baseArgs,
    say: (m) => logger.info(m),
    machine: options.machine ??
      ((server) => captureMachine(machineDeps(paths.dataDir), server)),
    connect: options.connect,
    profiler: options.profiler,
  });
  const fleet = options.fleet !== undefined
    ? options.fleet
    : isPostgresUrl(location)
    ? await startFleet(location, store, logger)
    : null;
  const exit = options.exit ?? (() => Deno.kill(Deno.pid, "SIGTERM"));
  const services: DashboardServices = {
    controller,
    store,
    fleet,
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
    host = createHost({
      plugins,
      env: envOf([...HOST_ENV_VARS, ...pluginEnvVars(plugins)], env),
      dataDir: paths.dataDir,
      configDir: paths.configDir,
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
      await fleet?.close();
      store.close();
    },
  };
}

/**
 * The fleet on the dashboard's PostgreSQL store (loaded only then: a SQLite dashboard never
 * loads pg-boss). A fleet that cannot start leaves the dashboard serving this machine, the reason
 * in the log.
 */
async function startFleet(
  url: string,
  store: ResultsStore,
  logger: Logger,
): Promise<FleetService | null> {
  try {
    const { FleetService } = await import("../lib/fleet/mod.ts");
    return await FleetService.start({
      url,
      onLost: (owner) => store.interruptOwner(owner),
      onError: (err) => logger.warn(`fleet: ${messageOf(err)}`),
    });
  } catch (err) {
    logger.warn(`The fleet is not available (${messageOf(err)}): this machine only`);
    return null;
  }
}
