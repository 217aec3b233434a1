/**
 * Serves a {@linkcode Host} on a socket through the web app: start, listen, then the
 * startup-complete hooks.
 *
 * @module
 */
import type { Host } from "./create_host.ts";
import type { ShutdownInfo } from "./plugin.ts";

/** Options of {@linkcode serveHost}. */
export interface ServeHostOptions {
  /** Listen address. @default "127.0.0.1" */
  hostname?: string;
  /** Port; 0 lets the OS choose. @default 5000 */
  port?: number;
  /** The web app serving the host (its APIs, and its pages when it has them). */
  fetch: Deno.ServeHandler;
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
  const server = Deno.serve(
    { hostname, port: options.port ?? 5000, onListen: () => {} },
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
