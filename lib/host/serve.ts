/**
 * Serves a {@linkcode Host} on a socket through the web app (with header and body timeouts and
 * a connection cap: `serveWithLimits()`): start, listen, then the
 * startup-complete hooks; and the scoped host process `deno task host` starts (`--scoped`),
 * which serves until it is stopped or needs a wider scope.
 *
 * @module
 */
import type { Hono } from "hono";
import { messageOf } from "../error.ts";
import { listenHostNames, type ServeLimits, serveWithLimits } from "../http/mod.ts";
import { RemotePrinter } from "../printer/remote/mod.ts";
import { print } from "../log.ts";
import { join } from "node:path";
import { createHost, type Host } from "./create_host.ts";
import { ERRORS_LOG_NAME, type FileSink, fileSink, HOST_LOG_NAME } from "./host_log.ts";
import type { HostArgs } from "./host_args.ts";
import { pluginEnvVars } from "./launch.ts";
import { HOST_ENV_VARS } from "./paths.ts";
import type { PluginDescriptor, ShutdownInfo } from "./plugin.ts";
import { envOf } from "./supervise/child_processes.ts";
import { SupervisorLink } from "./supervise/link.ts";
import type { LogFileKind } from "./supervise/protocol.ts";

/** Options of {@linkcode serveHost}. */
export interface ServeHostOptions {
  /** Listen address. @default "127.0.0.1" */
  hostname?: string;
  /** Port; 0 lets the OS choose. @default 5000 */
  port?: number;
  /** The web app serving the host (its APIs, and its pages when it has them). */
  fetch: Deno.ServeHandler;
  /** Header and body timeouts, connection cap. @default SERVE_LIMITS (10 s, 10 s, 256) */
  limits?: ServeLimits;
  /** The loopback ports the server behind the limits' relay may use. @default [0] (any free) */
  innerPorts?: readonly number[];
}

/** A served host. */
export interface ServedHost {
  /** The port actually bound. */
  port: number;
  hostname: string;
  /** The admin key when it was generated at this start. */
  adminKey: string | null;
  /** Stops the server and the host (`planned`: a restart, see {@linkcode Host.stop}). */
  shutdown(info?: ShutdownInfo): Promise<void>;
}

/** Starts the host and listens; resolves once the plugins' startup-complete hooks ran. */
export async function serveHost(host: Host, options: ServeHostOptions): Promise<ServedHost> {
  const { adminKey } = await host.start();
  const hostname = options.hostname ?? "127.0.0.1";
  const server = serveWithLimits(
    { hostname, port: options.port ?? 5000, innerPorts: options.innerPorts, ...options.limits },
    options.fetch,
  );
  const port = server.addr.port;
  host.logger.info(`Listening on http://${hostname}:${port}/`);
  await host.ready();
  let done: Promise<void> | null = null;
  return {
    port,
    hostname,
    adminKey,
    shutdown(info) {
      done ??= (async () => {
        await host.stop(info);
        await server.shutdown();
      })();
      return done;
    },
  };
}

/** Builds the web app serving a host alone (its pages too when `args.ui`). */
export type HostWebApp = (host: Host, allowedHosts: ReadonlySet<string>) => Hono;

/**
 * The scoped host: serves until SIGINT/SIGTERM (a real stop: plugins apply their failsafe), until
 * the launcher is gone (the same), or until saved settings need a wider scope (a planned
 * restart: outputs stay as they are, the launcher starts the host again). Returns the exit code.
 */
export async function runScopedHost(
  args: HostArgs,
  plugins: PluginDescriptor[],
  webApp: HostWebApp,
): Promise<number> {
  const { promise: stopped, resolve: stop } = Promise.withResolvers<ShutdownInfo>();
  // The launcher's own log lines (crashes, failsafes) go into host.log here, a crash's stack
  // into errors.log: it may not write.
  let launcherLog: Record<LogFileKind, FileSink> | null = null;
  const link = args.supervised
    ? new SupervisorLink({
      onClose: () => stop({ planned: false }),
      onLog: (lines, file) => lines.forEach((line) => launcherLog?.[file].sink("info", line)),
    })
    : null;
  // Under the launcher the printer lives in the printer process, reached through its socket.
  const printer = args.printerSocket ? new RemotePrinter({ path: args.printerSocket }) : null;
  const host = createHost({
    plugins,
    env: envOf([...HOST_ENV_VARS, ...pluginEnvVars(plugins)]),
    printerSpeed: args.printerSpeed,
    ...(printer ? { printer } : {}),
    logToStderr: true,
    resumed: args.resume,
    ...(args.serviceStartedAt === null ? {} : { serviceStartedAt: args.serviceStartedAt }),
    scope: link
      ? {
        files: args.scopeFiles,
        restart: (reason) => {
          link.restart(reason);
          stop({ planned: true });
        },
        probe: (request) => link.probe(request),
      }
      : { files: args.scopeFiles },
  });
  // Set before anything is awaited: the link reads its first line after this.
  launcherLog = {
    host: fileSink(join(host.paths.logDir, HOST_LOG_NAME)),
    errors: fileSink(join(host.paths.logDir, ERRORS_LOG_NAME), { mode: 0o600 }),
  };
  const web = webApp(host, listenHostNames(args.hostname, { extra: args.allowedHosts }));
  await printer?.synced().catch((err) =>
    host.logger.warn(`The printer process does not answer yet: ${messageOf(err)}`)
  );
  const outside = Deno.permissions.querySync({ name: "read", path: "/etc" }).state;
  host.logger.info(
    `Permission scope: read outside the host folders is ${
      outside === "granted" ? "allowed" : "refused"
    }`,
  );
  const served = await serveHost(host, {
    hostname: args.hostname,
    port: args.port,
    innerPorts: args.innerPorts,
    fetch: (req, info) => web.fetch(req, info),
  });
  if (link) link.listening(served.hostname, served.port, served.adminKey);
  else {
    if (served.adminKey) {
      print("Admin API key (shown once, store it now):");
      print(served.adminKey);
    }
    print(`Plugin host listening on http://${served.hostname}:${served.port}/`);
  }
  const onSignal = () => stop({ planned: false });
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  await served.shutdown(await stopped);
  await printer?.close();
  Deno.removeSignalListener("SIGINT", onSignal);
  Deno.removeSignalListener("SIGTERM", onSignal);
  launcherLog.host.close();
  launcherLog.errors.close();
  return 0;
}
