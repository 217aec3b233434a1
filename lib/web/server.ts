/**
 * The web app: one Hono app serving the plugin host's APIs (`host.api`, mounted with
 * `app.route()`), the route tree of the manifest (the dashboard's pages and API, the host's
 * pages, each hosted plugin's pages at `/plugins/<id>/`), the prebuilt island bundles and static
 * files. The guards run in one chain for all of it: the security headers (on every answer, a
 * refusal included), the Host allow-list, the body cap (not on the host's upload path, whose
 * route caps its body itself), compression,
 * then the host's authentication on its API paths, the dashboard's token, each folder's
 * `_middleware` (same-origin API calls, the host's sign-in); every failure ends in the one error
 * handler: `_404` / `_500` for a browser, `{"error", "code"}` for API paths and other clients.
 *
 * `deno task webapp` builds it with the dashboard and the host; `deno task host` with the host
 * alone (no dashboard routes).
 *
 * @module
 */
import { Hono, type MiddlewareHandler } from "hono";
import {
  allowHosts,
  compressAnswers,
  errorPages,
  hasBuild,
  ISLANDS_DIR,
  ISLANDS_URL,
  islandsByName,
  limitBody,
  type Manifest,
  MAX_REQUEST_BODY,
  mountRoutes,
  requireToken,
  type RouteFolder,
  securityHeaders,
  serveAssets,
} from "../http/mod.ts";
import { SetupError } from "../error.ts";
import type { DashboardServices } from "../dashboard/services.ts";
import { DASHBOARD_NAV } from "../dashboard/nav.ts";
import {
  CONNECTION_PATH,
  type Host,
  LOGIN_PATH,
  PAGES_BASE,
  sessionUser,
  SETTINGS_PATH,
  settingsPathOf,
} from "../host/mod.ts";
import type { Logger } from "../log.ts";
import type { NavLink } from "./state.ts";

/** The dashboard in the web app. */
export interface DashboardPart {
  services: DashboardServices;
  /**
   * The token: required on every dashboard route when `everywhere`, on the lifecycle routes
   * ({@linkcode LIFECYCLE_PATHS}) always.
   */
  token: string;
  /** Whether every dashboard route needs the token (bound beyond loopback). */
  everywhere: boolean;
}

/** Options of {@linkcode createWebServer}. */
export interface WebServerOptions {
  /** The project's routes and islands (`manifest.gen.ts`). */
  manifest: Manifest;
  /** The static folder (the island bundles in `_islands/`). */
  staticDir: string;
  /** Host names the server answers to. */
  allowedHosts: ReadonlySet<string>;
  /** The dashboard; absent when the host runs alone. */
  dashboard?: DashboardPart | null;
  /** The plugin host; absent with `--no-plugins`. */
  host?: Host | null;
  /** Serve the host's pages and the plugins' pages. @default true */
  hostPages?: boolean;
  logger?: Logger;
}

/** Routes that end or restart the process: the token is required even on loopback. */
export const LIFECYCLE_PATHS = ["/api/system/shutdown"];

/** A file of `static/` looks like `name.ext`: only such paths are looked up there. */
const ASSET = /\/[^/]*\.[A-Za-z0-9]+$/;

/**
 * Checks that `staticDir` holds the bundle of every island of `manifest` (the servers never
 * build them).
 *
 * @throws {SetupError} naming the folder and `deno task build` when one is missing.
 */
export async function assertIslandsBuilt(manifest: Manifest, staticDir: string): Promise<void> {
  const outDir = `${staticDir}/${ISLANDS_DIR}`;
  if (!(await hasBuild(outDir, Object.keys(islandsByName(manifest.islands))))) {
    throw new SetupError(
      `Cannot serve the pages: the island bundles are missing in ${outDir} ` +
        "(run 'deno task build')",
      { code: "islands_not_built" },
    );
  }
}

/** Builds the web app. */
export function createWebServer(options: WebServerOptions): Hono {
  const { manifest, host, dashboard } = options;
  const pages = host !== null && host !== undefined && options.hostPages !== false;
  const app = new Hono({ strict: false });
  const errors = errorPages(manifest, {
    logger: options.logger,
    bootScript: BOOT,
    apiPaths: host?.apiPaths,
  });
  app.onError(errors.onError);
  app.notFound(errors.notFound);
  // First, so that every answer carries them: a refused Host (400/403) and a body over the cap
  // (413) as much as a page, a 404 or a 500.
  app.use("*", securityHeaders());
  app.use("*", allowHosts(options.allowedHosts));
  // Every body is capped, but the host's uploads: their routes cap them (larger) themselves.
  const bodyCap = limitBody(MAX_REQUEST_BODY);
  const uploads = new Set(host?.uploadPaths ?? []);
  app.use(
    "*",
    (c, next) => c.req.method === "POST" && uploads.has(c.req.path) ? next() : bodyCap(c, next),
  );
  // Text answers of both parts (pages, JSON, bundles) over 1 KiB leave gzip-compressed; the
  // event stream never.
  app.use("*", compressAnswers());
  // The host's APIs, each path behind its authentication (key or session) and permission.
  if (host) app.route("/", host.api);
  const state = pageState(options, pages);
  app.use("*", async (c, next) => {
    for (const [k, v] of Object.entries(state)) c.set(k as never, v as never);
    await next();
  });
  // Stylesheet, icons and island bundles: the same public bytes for every visitor.
  const assets = serveAssets({ root: options.staticDir });
  app.use("*", async (c, next) => ASSET.test(c.req.path) ? await assets(c, next) : await next());
  // Who is signed in to the host, in every page's top bar (the dashboard's too).
  if (pages) app.use("*", sessionUser(host!) as MiddlewareHandler);
  if (dashboard) {
    const token = requireToken(dashboard.token);
    app.use("*", async (c, next) => {
      const path = c.req.path;
      if (pages && (path === PAGES_BASE || path.startsWith(`${PAGES_BASE}/`))) return await next();
      if (dashboard.everywhere || LIFECYCLE_PATHS.includes(path)) return await token(c, next);
      await next();
    });
  }
  if (pages) mountFormerPaths(app, host!);
  mountRoutes(app as unknown as Hono, manifest, {
    bootScript: BOOT,
    folders: routeFolders(manifest, { dashboard: !!dashboard, host: pages ? host : null }),
  });
  return app;
}

const BOOT = `${ISLANDS_URL}/boot.js`;

/** The state every request starts with: the top bar and the services of each part. */
function pageState(options: WebServerOptions, pages: boolean): Record<string, unknown> {
  const nav: NavLink[] = options.dashboard ? [...DASHBOARD_NAV] : [];
  const navbar: string[] = [];
  const settingsNav: NavLink[] = [];
  if (pages && options.host) {
    for (const p of options.host.plugins) {
      if (p.ui?.nav) nav.push({ href: `${PAGES_BASE}/${p.id}/`, label: p.ui.nav });
      navbar.push(...(p.ui?.navbar ?? []).map((name) => `${p.id}/${name}`));
      if (`plugins/${p.id}/routes/settings.tsx` in options.manifest.routes) {
        settingsNav.push({ href: settingsPathOf(p.id), label: p.name });
      }
    }
    nav.push({ href: CONNECTION_PATH, label: "Printer" });
    if (settingsNav.length > 0) {
      nav.push({
        href: SETTINGS_PATH,
        label: "Settings",
        covers: settingsNav.map((link) => link.href),
      });
    }
  }
  return {
    nav,
    navbar,
    settingsNav,
    ...(pages ? { loginPath: LOGIN_PATH } : {}),
    ...(options.dashboard ? { services: options.dashboard.services } : {}),
    ...(pages && options.host ? { host: options.host } : {}),
  };
}

/** The route folders: the tree's dashboard and host parts, and each hosted plugin's pages. */
function routeFolders(
  manifest: Manifest,
  parts: { dashboard: boolean; host: Host | null | undefined },
): RouteFolder[] {
  const hostFiles = `routes${PAGES_BASE}/`;
  const folders: RouteFolder[] = [{
    dir: "routes",
    include: (file) => file.startsWith(hostFiles) ? !!parts.host : parts.dashboard,
  }];
  for (const p of parts.host?.plugins ?? []) {
    const dir = `plugins/${p.id}/routes`;
    if (!Object.keys(manifest.routes).some((f) => f.startsWith(`${dir}/`))) continue;
    const host = parts.host!;
    folders.push({
      dir,
      at: `routes${PAGES_BASE}/${p.id}`,
      middleware: [async (c, next) => {
        c.set("plugin", host.instanceOf(p.id));
        await next();
      }],
    });
  }
  return folders;
}

/** Former URLs of plugin pages: a permanent redirect to `/plugins/<id>/`, query kept. */
function mountFormerPaths(app: Hono, host: Host): void {
  for (const p of host.plugins) {
    for (const former of p.ui?.formerPaths ?? []) {
      app.get(former, (c) => c.redirect(`${PAGES_BASE}/${p.id}/${new URL(c.req.url).search}`, 301));
    }
  }
}
