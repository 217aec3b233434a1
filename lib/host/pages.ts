/**
 * The plugin host's pages in the web app's route tree: their request state, the `define` of
 * `routes/plugins/` and of each plugin's own `plugins/<id>/routes/`, and the sign-in middleware
 * of `routes/plugins/_middleware.ts` (a browser without a session goes to the login page).
 *
 * @module
 */
import { getCookie } from "hono/cookie";
import { AppError, ForbiddenError } from "../error.ts";
import { createDefine, type Define, type Middleware } from "../http/mod.ts";
import type { WebState } from "../web/state.ts";
import { type Principal, resolvePrincipal, SESSION_COOKIE } from "./auth/mod.ts";
import type { Host, HostServices } from "./create_host.ts";
import { hasPermission } from "./permissions.ts";
import type { PluginInstance } from "./plugin.ts";

/** Where the host's pages are mounted (each plugin's at `/plugins/<id>/`). */
export const PAGES_BASE = "/plugins";

/** The login page (the one host page open without a session). */
export const LOGIN_PATH = `${PAGES_BASE}/login`;

/** The printer's connection page. */
export const CONNECTION_PATH = `${PAGES_BASE}/connection`;

/** The settings screens' entry (the first plugin's screen; each at `/plugins/<id>/settings`). */
export const SETTINGS_PATH = `${PAGES_BASE}/settings`;

/** The settings screen of a plugin. */
export function settingsPathOf(id: string): string {
  return `${PAGES_BASE}/${id}/settings`;
}

/** The state of a host page once signed in. */
export interface HostPageState extends WebState {
  /** The host: its accounts, sessions, settings and printer. */
  host: Host;
  principal: Principal;
  csrfToken: string;
}

/** The state of a plugin's own page: the host page state and the plugin's instance. */
export interface PluginPageState<I extends PluginInstance> extends HostPageState {
  plugin: I;
}

/** The typed helpers of `routes/plugins/`. */
export const define: Define<HostPageState> = createDefine<HostPageState>();

/**
 * The typed helpers of a plugin's pages (`plugins/<id>/routes/`): `c.var.plugin` is the
 * plugin's instance.
 *
 * @example
 * ```ts
 * import { definePluginPages } from "./pages.ts";
 * import type { PluginInstance } from "./plugin.ts";
 * interface Greeter extends PluginInstance {
 *   greeting: string;
 * }
 * const define = definePluginPages<Greeter>();
 * export const handler = define.handlers({ GET: (c) => c.text(c.var.plugin.greeting) });
 * ```
 */
export function definePluginPages<I extends PluginInstance>(): Define<PluginPageState<I>> {
  return createDefine<PluginPageState<I>>();
}

/**
 * The signed-in user on every page (the dashboard's too), so that the top bar shows who is
 * signed in and a logout button: a browser's live session sets `user` and `csrfToken`; anything
 * else (no session, a dead one, an API key) leaves them unset. Enforces nothing.
 */
export function sessionUser(host: HostServices): Middleware<WebState> {
  return async function sessionUserMiddleware(c, next) {
    const sid = getCookie(c, SESSION_COOKIE);
    const session = sid === undefined ? null : host.sessions.get(sid);
    if (session) {
      const account = await host.users.account(session.user);
      if (account && account.stamp === session.stamp) {
        c.set("user", session.user);
        c.set("csrfToken", session.csrfToken);
      }
    }
    await next();
  };
}

/**
 * The sign-in middleware of the host's pages: a request with a session or key carrying STATUS
 * gets `principal`, `user` and `csrfToken`; a browser with neither is sent to the login page
 * (with the page as `next`); STATUS missing is 403. The login page itself is open.
 */
export function requireSignIn(): Middleware<HostPageState> {
  return async function signIn(c, next) {
    if (c.req.path === LOGIN_PATH) return await next();
    let principal: Principal | null = null;
    try {
      principal = await resolvePrincipal(c, c.var.host);
    } catch (err) {
      // A dead session or a wrong key: sign in again.
      if (!(err instanceof AppError)) throw err;
    }
    if (!principal) {
      const path = new URL(c.req.url).pathname;
      return c.redirect(`${LOGIN_PATH}?next=${encodeURIComponent(path)}`);
    }
    if (!hasPermission(principal.permissions, "STATUS")) {
      throw new ForbiddenError("Permission STATUS required");
    }
    const sid = getCookie(c, SESSION_COOKIE);
    const session = sid === undefined ? null : c.var.host.sessions.get(sid);
    c.set("principal", principal);
    c.set("user", principal.user);
    c.set("csrfToken", session?.csrfToken ?? "");
    await next();
  };
}
