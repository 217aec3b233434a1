/**
 * The plugin host's API as routes for the web app, not an app of its own: the push socket
 * (`/push`, `/sockjs/websocket`), the account routes, settings, printer, job and files,
 * `/api/plugins` and every plugin's routes. Each path it registers carries the host's
 * authentication (API key, or session + CSRF), and each plugin route the permission of its
 * method; the web app mounts it with
 * `app.route("/", host.api)` after its guards and answers its failures with its one error handler.
 *
 * @module
 */
import { Hono } from "hono";
import type { Clock } from "../clock.ts";
import {
  assertPermission,
  authenticate,
  authRoutes,
  LoginThrottle,
  requireMethodPermission,
} from "./auth/mod.ts";
import type { Host } from "./create_host.ts";
import { defaultPermissionFor } from "./permissions.ts";
import type { Permission, PluginRoutes } from "./plugin.ts";
import type { UploadsFolder } from "../printer/uploads.ts";
import { connectionRoutes, fileRoutes, jobRoutes, printerRoutes } from "./printer/mod.ts";
import { pushSocketHandler } from "./push/mod.ts";
import { settingsRoutes } from "./settings/mod.ts";

/**
 * What the API serves: the host's parts, each plugin's routes, the hook after a save, and the
 * printer that prints uploaded files (`/api/files`, `/api/job`) when there is one.
 */
export type HostApiParts =
  & Pick<
    Host,
    "plugins" | "users" | "sessions" | "settings" | "push" | "printer" | "config" | "logger"
  >
  & {
    pluginRoutes: readonly PluginRoutes[];
    clock: Clock;
    afterSave(): Record<string, unknown>;
    beforeChange(): void;
    uploads: UploadsFolder;
  };

/** The push socket's paths (the second one is the print host's SockJS address). */
export const SOCKET_PATHS = ["/push", "/sockjs/websocket"] as const;

/** The host's API: mount it with `app.route("/", api)`. */
export function hostApi(parts: HostApiParts): Hono {
  const { users, sessions, clock, logger } = parts;
  const auth = authenticate({ users, sessions, publicRoutes: ["POST /api/login"] });
  const own = new Hono();
  own.route(
    "/api",
    authRoutes({
      users,
      sessions,
      logger: logger.child("auth"),
      throttle: new LoginThrottle({ now: () => clock.now() }),
    }),
  );
  own.route(
    "/api/settings",
    settingsRoutes(parts.settings, {
      afterSave: parts.afterSave,
      beforeChange: parts.beforeChange,
    }),
  );
  own.route("/api", printerRoutes(parts.printer));
  own.route("/api", jobRoutes(parts.printer));
  own.route("/api", fileRoutes(parts.printer, parts.uploads));
  own.route("/api", connectionRoutes(parts.printer, parts.config));
  own.get("/api/plugins", requireMethodPermission(), (c) =>
    c.json({
      plugins: parts.plugins.map((p) => ({ id: p.id, name: p.name, version: p.version })),
    }));

  const api = new Hono();
  // The socket authenticates at upgrade time (or by its first message) itself.
  const socket = pushSocketHandler({
    hub: parts.push,
    users,
    sessions,
    logger: logger.child("push"),
    clock,
    hello: { connected: { plugins: parts.plugins.map((p) => p.id) } },
  });
  for (const path of SOCKET_PATHS) api.get(path, socket);
  // The host's own paths share /api/ with the dashboard: authentication goes on each of them.
  for (const path of new Set(own.routes.map((r) => r.path))) api.use(path, auth);
  api.route("/", own);
  // A plugin's base is its own: everything below it is authenticated, then checked.
  for (const r of parts.pluginRoutes) {
    const guarded = new Hono();
    guarded.use("*", auth, async (c, next) => {
      const method = c.req.method.toUpperCase();
      const overrides: Partial<Record<string, Permission>> = r.permissions ?? {};
      assertPermission(
        c,
        r.permissionFor?.(method, c.req.path.slice(r.base.length)) ?? overrides[method] ??
          defaultPermissionFor(method),
      );
      await next();
    });
    guarded.route("/", r.app);
    api.route(r.base, guarded);
  }
  return api;
}
