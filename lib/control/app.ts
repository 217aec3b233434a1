/**
 * The dashboard application: the file routes of the manifest with their pages and APIs, the
 * island bundles and static files, the guards (same-origin POSTs, the token when bound
 * elsewhere), the one error handler, and the plugin host's routes mounted in the same server.
 *
 * @module
 */
import { join } from "node:path";
import { Hono } from "hono";
import type { ComponentType } from "preact";
import { errorHandler, notFoundHandler } from "../http/error_handler.ts";
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
  /** The control token; null when bound to loopback. */
  token: string | null;
  /** The plugin host's app, mounted under {@linkcode HOST_PREFIXES}. @default none */
  hostApp?: { fetch: (req: Request, env?: unknown) => Response | Promise<Response> } | null;
  logger?: Logger;
}

/** Whether a path belongs to the plugin host. */
export function isHostPath(path: string): boolean {
  return HOST_PREFIXES.some((p) => path === p.replace(/\/$/, "") || path.startsWith(p));
}

/** Builds the dashboard's Hono app. */
export function createDashboardApp(options: DashboardAppOptions): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  app.onError(errorHandler({ logger: options.logger }));
  app.notFound(notFoundHandler);
  const host = options.hostApp;
  if (host) {
    app.use("*", async (c, next) => {
      if (!isHostPath(c.req.path)) return await next();
      return await host.fetch(c.req.raw, c.env);
    });
  }
  app.use("*", async (c, next) => {
    c.set("services", options.services);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    await next();
  });
  app.use("/api/*", sameOrigin());
  const token = requireToken(options.token);
  app.use("/api/*", async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return await next();
    return await token(c, next);
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
