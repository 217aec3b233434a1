/**
 * The dashboard application: the file routes of the manifest with their pages and APIs, the
 * island bundles and static files, the guards (the Host allow-list, same-origin POSTs, the token
 * on every route when bound beyond loopback and on the lifecycle routes always), the security
 * headers, the one error handler, and the plugin host's routes mounted in the same server.
 *
 * @module
 */
import { join } from "node:path";
import { Hono } from "hono";
import type { ComponentType } from "preact";
import { errorHandler, notFoundHandler } from "../http/error_handler.ts";
import { limitBody, MAX_REQUEST_BODY } from "../http/body.ts";
import { securityHeaders } from "../http/headers.ts";
import { allowHosts, listenHostNames } from "../http/host_allow.ts";
import {
  type LayoutProps,
  type Manifest,
  mountRoutes,
  requireToken,
  sameOrigin,
  serveAssets,
} from "../http/fw.ts";
import type { Logger } from "../log.ts";
import type { DashboardEnv, DashboardServices } from "./services.ts";

/**
 * Where the island bundles (the dashboard's and the plugin host pages', one build) are,
 * relative to `static/`.
 */
export const ISLANDS_DIR = "_islands";

/** The URL of the island bundles. */
export const ISLANDS_URL = "/_islands";

/** Path prefixes answered by the plugin host. */
export const HOST_PREFIXES = [
  "/api/plugin/",
  "/plugin/",
  "/api/plugins",
  "/api/settings",
  "/api/printer",
  "/api/job",
  "/api/login",
  "/api/logout",
  "/api/currentuser",
  "/push",
  "/sockjs/",
  "/plugins",
  "/static/",
];

/** Options of {@linkcode createDashboardApp}. */
export interface DashboardAppOptions {
  services: DashboardServices;
  manifest: Manifest<DashboardEnv>;
  /** The page layout (`routes/_app.tsx`). */
  layout: ComponentType<LayoutProps>;
  /** The `static/` folder (island bundles in `_islands/`). */
  staticDir: string;
  /**
   * The token: required on every route when `tokenEverywhere`, on the lifecycle routes
   * ({@linkcode LIFECYCLE_PATHS}) always.
   */
  token: string;
  /** Whether every route needs the token (bound beyond loopback). @default false */
  tokenEverywhere?: boolean;
  /** Host names the server answers to. @default the loopback names */
  allowedHosts?: ReadonlySet<string>;
  /** The plugin host's app, mounted under {@linkcode HOST_PREFIXES}. @default none */
  hostApp?: { fetch: (req: Request, env?: unknown) => Response | Promise<Response> } | null;
  logger?: Logger;
}

/** Routes that end or restart the process: the token is required even on loopback. */
export const LIFECYCLE_PATHS = ["/api/system/shutdown"];

/** Whether a path belongs to the plugin host. */
export function isHostPath(path: string): boolean {
  return HOST_PREFIXES.some((p) => path === p.replace(/\/$/, "") || path.startsWith(p));
}

/** Builds the dashboard's Hono app. */
export function createDashboardApp(options: DashboardAppOptions): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  app.onError(errorHandler({ logger: options.logger }));
  app.notFound(notFoundHandler);
  app.use("*", allowHosts(options.allowedHosts ?? listenHostNames("127.0.0.1")));
  app.use("*", limitBody(MAX_REQUEST_BODY));
  const host = options.hostApp;
  if (host) {
    // The host answers its own paths with its own authentication (key or session) and headers.
    app.use("*", async (c, next) => {
      if (!isHostPath(c.req.path)) return await next();
      return await host.fetch(c.req.raw, c.env);
    });
  }
  app.use("*", securityHeaders());
  app.use("*", async (c, next) => {
    c.set("services", options.services);
    await next();
  });
  app.use("/api/*", sameOrigin());
  const token = requireToken(options.token);
  app.use("*", async (c, next) => {
    if (options.tokenEverywhere || LIFECYCLE_PATHS.includes(c.req.path)) {
      return await token(c, next);
    }
    await next();
  });
  app.use(
    `${ISLANDS_URL}/*`,
    serveAssets({ root: join(options.staticDir, ISLANDS_DIR), prefix: ISLANDS_URL }),
  );
  mountRoutes(app, options.manifest, {
    layout: options.layout,
    styles: ["/styles.css"],
    bootScript: `${ISLANDS_URL}/boot.js`,
  });
  app.use("*", serveAssets({ root: options.staticDir }));
  return app;
}
