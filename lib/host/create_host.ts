/**
 * The plugin host as a factory: its accounts, settings, printer, push hub, plugins and their
 * lifecycle, and its API as routes (`./api.ts`) that the web app (`lib/web/server.ts`) mounts
 * beside its pages.
 *
 * @module
 */
import { join } from "node:path";
import type { Hono } from "hono";
import { type Clock, systemClock } from "../clock.ts";
import { UnavailableError } from "../error.ts";
import { createLogger, type Logger } from "../log.ts";
import { SessionStore, UserStore } from "./auth/mod.ts";
import { hostApi, SOCKET_PATHS } from "./api.ts";
import { ConfigFile, type ConfigFs } from "./config_file.ts";
import { errorsLog, fileSink, HOST_LOG_NAME } from "./host_log.ts";
import { type HostPaths, resolveHostPaths } from "./paths.ts";
import type {
  PluginContext,
  PluginDescriptor,
  PluginInstance,
  Settings,
  ShutdownInfo,
} from "./plugin.ts";
import { printsFile } from "../printer/job/mod.ts";
import type { Printer } from "../printer/printer.ts";
import { connectAtStart, connectionSettingsOf } from "../printer/connection_settings.ts";
import { PrinterService } from "../printer/service.ts";
import { listSerialPorts, openSerialTransport } from "../printer/serial/mod.ts";
import { UploadsFolder } from "../printer/uploads.ts";
import { feedPrinterPush, UPLOAD_PATH } from "./printer/mod.ts";
import { PushHub } from "./push/mod.ts";
import { SettingsStore } from "./settings/mod.ts";
import { type ScopeControl, ScopeWatch } from "./scope_watch.ts";
import { HANDOVER_NAME, HandoverFile, HOST_HANDOVER } from "./handover.ts";

/** Options of {@linkcode createHost}. */
export interface HostOptions {
  /** The plugins to host. */
  plugins: PluginDescriptor[];
  /** localbench data folder. @default from `env` (LOCALBENCH_DATA_DIR / XDG) */
  dataDir?: string;
  /** localbench config folder. @default from `env` */
  configDir?: string;
  /** Log folder. @default `<dataDir>/host/logs` */
  logDir?: string;
  /** Environment (paths and plugins' variables). @default {} */
  env?: Record<string, string>;
  /** Time source. @default systemClock */
  clock?: Clock;
  /**
   * The printer, owned by the caller (the printer process's, through its socket). @default a
   * printer service of the host's own, connected at start as config.yaml's `serial` section says
   * (the virtual printer when it says nothing), disconnected at stop
   */
  printer?: Printer;
  /** Largest G-code file uploaded. @default MAX_UPLOAD_BYTES (1 GiB) */
  maxUploadBytes?: number;
  /** Speed factor of the virtual printer's clock (the host's own service). @default 1 */
  printerSpeed?: number;
  /** Root logger. @default a logger writing `<logDir>/host.log` */
  logger?: Logger;
  /** Also copy the host log to standard error. @default false */
  logToStderr?: boolean;
  /** File operations of config.yaml (tests inject failures). */
  configFs?: ConfigFs;
  /** The host restarted itself (see {@linkcode PluginContext.resumed}). @default false */
  resumed?: boolean;
  /**
   * When the service started, ms since the epoch (see {@linkcode PluginContext.serviceStartedAt});
   * the launcher passes its own start. @default the clock at creation
   */
  serviceStartedAt?: number;
  /** The launcher's scope and channel when one supervises the host. @default none */
  scope?: ScopeControl;
}

/** The host's accounts, sessions, settings and folders (what its pages need). */
export interface HostServices {
  users: UserStore;
  sessions: SessionStore;
  settings: SettingsStore;
  paths: HostPaths;
}

/** A running (or ready to start) plugin host. */
export interface Host extends HostServices {
  /**
   * Every host and plugin API route, each behind the host's authentication: the web app mounts
   * it with `app.route("/", host.api)` (`lib/web/server.ts`).
   */
  api: Hono;
  /** The paths at and below which {@linkcode Host.api} answers (errors there are JSON). */
  apiPaths: readonly string[];
  /**
   * `POST` paths whose route caps the body itself (uploads, larger than the web app's 8 MiB
   * cap): the web app leaves exactly these uncapped.
   */
  uploadPaths: readonly string[];
  /** The uploaded G-code files (`<dataDir>/host/uploads`). */
  uploads: UploadsFolder;
  /** The hosted plugins. */
  plugins: readonly PluginDescriptor[];
  push: PushHub;
  printer: Printer;
  config: ConfigFile;
  logger: Logger;
  /** The context handed to a plugin. */
  contextOf(id: string): PluginContext;
  /** The instance the host holds for a hosted plugin (what its `create(ctx)` returned). */
  instanceOf<I extends PluginInstance>(plugin: PluginDescriptor<Settings, I> | string): I;
  /**
   * Loads settings, creates the admin key at first start, starts the printer and starts every
   * plugin (`start`). Returns the admin key when one was just generated (print it once).
   */
  start(): Promise<{ adminKey: string | null }>;
  /** Tells every plugin the server listens (`ready`). */
  ready(): Promise<void>;
  /**
   * Stops every plugin (`stop`), the printer and the log. `planned` marks a restart of the
   * host: plugins keep their outputs as they are (no failsafe).
   */
  stop(info?: ShutdownInfo): Promise<void>;
}

/**
 * Creates the plugin host.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { createHost } from "./create_host.ts";
 * const dataDir = await Deno.makeTempDir();
 * const host = createHost({ plugins: [], dataDir });
 * const { adminKey } = await host.start();
 * const app = new Hono().route("/", host.api);
 * const res = await app.request("/api/settings", { headers: { "X-Api-Key": adminKey! } });
 * assert.equal(res.status, 200);
 * await host.stop();
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 */
export function createHost(options: HostOptions): Host {
  const env = options.env ?? {};
  const paths = resolveHostPaths(env, options);
  const clock = options.clock ?? systemClock;
  const serviceStartedAt = options.serviceStartedAt ?? clock.now();
  const log = options.logger
    ? null
    : fileSink(join(paths.logDir, HOST_LOG_NAME), { tee: options.logToStderr });
  // Stacks go to errors.log (ADMIN only); host.log names them by reference.
  const errors = options.logger ? null : errorsLog(paths.logDir);
  const logger = options.logger ??
    createLogger("localbench.host", {
      sink: log!.sink,
      details: errors!.details,
      now: () => new Date(clock.now()),
    });
  const config = new ConfigFile(paths.configFile, options.configFs);
  const users = new UserStore(config, () => clock.now());
  const sessions = new SessionStore({ now: () => clock.now() });
  const settings = new SettingsStore(
    config,
    options.plugins,
    logger.child("settings"),
    new ConfigFile(paths.secretsFile, options.configFs),
  );
  const push = new PushHub(logger.child("push"));
  const ownPrinter = options.printer ? null : new PrinterService({
    openTransport: openSerialTransport,
    listPorts: async () => {
      const extra = connectionSettingsOf(await config.read()).additional_ports;
      return (await listSerialPorts({ extra })).map((p) => p.path);
    },
    clock,
    virtualSpeed: options.printerSpeed,
    uploadsDir: paths.uploadsDir,
  });
  const printer: Printer = options.printer ?? ownPrinter!;
  const stopPrinterFeed = feedPrinterPush(printer, push, { clock });

  const uploads = new UploadsFolder(paths.uploadsDir, {
    maxBytes: options.maxUploadBytes,
    inUse: (name) => printsFile(printer.job(), name),
    logger: logger.child("uploads"),
  });

  const handover = new HandoverFile(join(paths.hostDir, HANDOVER_NAME), logger);
  const hostHandover = handover.of(HOST_HANDOVER);
  const contexts = new Map<string, PluginContext>();
  for (const p of options.plugins) {
    if (contexts.has(p.id)) throw new TypeError(`Cannot host plugin '${p.id}' twice`);
    if (p.id === HOST_HANDOVER) throw new TypeError(`Cannot host a plugin named '${p.id}'`);
    contexts.set(p.id, {
      id: p.id,
      logger: logger.child(`plugins.${p.id}`),
      clock,
      dataDir: join(paths.hostDir, "plugins", p.id),
      logDir: paths.logDir,
      settings: settings.accessFor(p.id),
      printer,
      push: (data, opts) => push.send(p.id, data, opts?.permission),
      env: Object.fromEntries(
        Object.entries(env).filter(([k]) => !p.envVars || p.envVars.includes(k)),
      ),
      resumed: options.resumed ?? false,
      serviceStartedAt,
      handover: handover.of(p.id),
      grantedFile: (path) => options.scope?.files?.[path] ?? path,
      probeOutside: options.scope?.probe
        ? (probe, args, net) => options.scope!.probe!({ plugin: p.id, probe, args, net })
        : undefined,
    });
  }

  const instances = new Map<string, PluginInstance>();
  for (const p of options.plugins) instances.set(p.id, p.create?.(contexts.get(p.id)!) ?? {});

  const scopeWatch = new ScopeWatch({
    plugins: options.plugins,
    settings,
    push,
    logger: logger.child("scope"),
    control: options.scope,
  });
  const pluginRoutes = options.plugins.flatMap((p) => instances.get(p.id)!.routes ?? []);
  /** The host stops (for good, or for a restart): changes wait for the next one. */
  let stopping = false;
  const api = hostApi({
    plugins: options.plugins,
    pluginRoutes,
    users,
    sessions,
    settings,
    push,
    printer,
    config,
    logger,
    clock,
    afterSave: () => scopeWatch.afterSave(),
    // A change that comes while the host stops (a restart) waits for the next host: the
    // settings screens send it again after the Retry-After.
    beforeChange: () => {
      if (stopping) {
        throw new UnavailableError("The host is restarting: send the change again in a moment", {
          code: "restarting",
          retryAfterSeconds: 2,
        });
      }
    },
    uploads,
  });

  const each = async (
    hook: "start" | "ready" | "stop",
    info: ShutdownInfo = { planned: false },
  ) => {
    for (const p of options.plugins) {
      const instance = instances.get(p.id)!;
      if (hook !== "stop") {
        await instance[hook]?.();
        continue;
      }
      try {
        await instance.stop?.(info);
      } catch (err) {
        logger.error(`Shutdown of plugin ${p.id} failed: ${err}`);
      }
    }
  };

  return {
    api,
    apiPaths: ["/api", ...SOCKET_PATHS, ...pluginRoutes.map((r) => r.base)],
    uploadPaths: [UPLOAD_PATH],
    uploads,
    plugins: options.plugins,
    paths,
    push,
    printer,
    settings,
    users,
    sessions,
    config,
    logger,
    contextOf: (id) => {
      const ctx = contexts.get(id);
      if (!ctx) throw new TypeError(`Unknown plugin '${id}'`);
      return ctx;
    },
    instanceOf<I extends PluginInstance>(plugin: PluginDescriptor<Settings, I> | string): I {
      const id = typeof plugin === "string" ? plugin : plugin.id;
      const instance = instances.get(id);
      if (!instance) throw new TypeError(`Unknown plugin '${id}'`);
      return instance as I;
    },
    async start() {
      for (
        const dir of [
          paths.hostDir,
          paths.logDir,
          ...[...contexts.values()].map((c) => c.dataDir),
        ]
      ) {
        await Deno.mkdir(dir, { recursive: true });
      }
      await settings.load();
      await handover.load(options.resumed ?? false);
      // Signed-in browsers carry on across a planned restart (see stop).
      sessions.import(hostHandover.get());
      const adminKey = await users.ensureAdmin();
      if (adminKey) logger.info("No users yet: created user 'admin' and an admin API key");
      if (ownPrinter) {
        await connectAtStart(ownPrinter, connectionSettingsOf(await config.read()), logger);
      }
      await each("start");
      logger.info(`Plugin host started with ${options.plugins.length} plugin(s)`);
      return { adminKey };
    },
    ready: () => each("ready"),
    async stop(info) {
      stopping = true;
      await each("stop", info);
      if (info?.planned) {
        hostHandover.set(sessions.export());
        await handover.save();
      }
      stopPrinterFeed();
      push.closeAll();
      await ownPrinter?.close();
      logger.info("Plugin host stopped");
      log?.close();
      errors?.close();
    },
  };
}
