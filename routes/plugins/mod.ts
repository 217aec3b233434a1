/**
 * The plugin host's pages: `/plugins/login`, `/plugins/logs` (log viewer with the navbar
 * uptime widget), `/plugins/power` (branch power panel), `/plugins/temperature` (temperature
 * ETA panel), the static files and the island bundles. Thin: data comes from the host's
 * services and the log monitor; the power and temperature panels load their plugin's API.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import type { ComponentType } from "preact";
import { getCookie } from "hono/cookie";
import { AppError } from "../../lib/error.ts";
import { registerIslands, renderDocument, serveAssets } from "../../lib/http/fw.ts";
import { safeLocalPath } from "../../lib/http/redirect.ts";
import type { Principal, SessionStore, UserStore } from "../../lib/host/auth/mod.ts";
import { resolvePrincipal, SESSION_COOKIE } from "../../lib/host/auth/mod.ts";
import { hasPermission } from "../../lib/host/permissions.ts";
import type { SettingsStore } from "../../lib/host/settings/store.ts";
import { listLogFiles } from "../../plugins/logmonitor/files.ts";
import type { LogMonitorSettings } from "../../plugins/logmonitor/settings.ts";
import LoginPage from "./login.tsx";
import LogsPage from "./logs.tsx";
import PowerPage from "./power.tsx";
import TemperaturePage from "./temperature.tsx";
import HostApp from "./_app.tsx";
import { HOST_ISLANDS, STATIC_ROOT } from "./islands.ts";

/** Services the pages need. */
export interface HostUiDeps {
  users: UserStore;
  sessions: SessionStore;
  settings: SettingsStore;
  logDir: string;
  /** Static folder. @default the project's `static/` */
  staticRoot?: string;
}

const STYLES = ["/static/plugins/host.css"];

/** The island boot script (it loads each island's bundle from its own folder). */
const BOOT_SCRIPT = "/_islands/boot.js";

/** Renders a page into the host's document shell; the boot script only when it has islands. */
function render<P>(c: Context, page: ComponentType<P>, props: P, title: string): Response {
  return c.html(renderDocument({
    page: page as unknown as ComponentType<Record<string, unknown>>,
    props: props as Record<string, unknown>,
    title,
    path: c.req.path,
    layout: HostApp,
    bootScript: BOOT_SCRIPT,
    styles: STYLES,
  }));
}

/** The pages as a Hono app; mount it before the host's authentication middleware. */
export function hostUiRoutes(deps: HostUiDeps): Hono {
  registerIslands(HOST_ISLANDS);
  const app = new Hono();
  const root = deps.staticRoot ?? STATIC_ROOT;
  app.use("/static/*", serveAssets({ prefix: "/static", root }));
  app.use("/_islands/*", serveAssets({ prefix: "/_islands", root: `${root}/_islands` }));

  const page = async (c: Context) => {
    let principal: Principal | null = null;
    try {
      principal = await resolvePrincipal(c, deps);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
    if (!principal) {
      return { redirect: c.redirect(`/plugins/login?next=${encodeURIComponent(c.req.path)}`) };
    }
    if (!hasPermission(principal.permissions, "STATUS")) {
      throw new AppError(403, "Permission STATUS required");
    }
    const sid = getCookie(c, SESSION_COOKIE);
    const session = sid === undefined ? null : deps.sessions.get(sid);
    return { principal, csrf: session?.csrfToken ?? "" };
  };

  app.get("/plugins", (c) => c.redirect("/plugins/logs"));
  app.get("/plugins/login", (c) => {
    const next = safeLocalPath(c.req.query("next"), "/plugins/logs");
    return render(c, LoginPage, { next }, "Log in");
  });
  app.get("/plugins/logs", async (c) => {
    const p = await page(c);
    if ("redirect" in p) return p.redirect;
    const s = deps.settings.get("logmonitor") as unknown as LogMonitorSettings;
    const files = (await listLogFiles(deps.logDir)) ?? [];
    const data = {
      user: p.principal.user,
      viewer: {
        csrfToken: p.csrf,
        files,
        defaultFile: s.default_log_file,
        pageSize: s.search_page_size,
        maxLiveLines: s.max_stream_lines,
        regexEnabled: s.regex_search_enabled,
      },
    };
    return render(c, LogsPage, data, "Log monitor");
  });
  app.get("/plugins/power", async (c) => {
    const p = await page(c);
    if ("redirect" in p) return p.redirect;
    const data = { user: p.principal.user, panel: { csrfToken: p.csrf } };
    return render(c, PowerPage, data, "Power");
  });
  app.get("/plugins/temperature", async (c) => {
    const p = await page(c);
    if ("redirect" in p) return p.redirect;
    const data = { user: p.principal.user, panel: {} };
    return render(c, TemperaturePage, data, "Temperature");
  });
  return app;
}
