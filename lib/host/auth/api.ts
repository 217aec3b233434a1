/**
 * `POST /api/login {user, pass}` (sets the HttpOnly session cookie, returns the CSRF token; only
 * from the server's own page: a same-origin `Origin` or `Sec-Fetch-Site`, and a JSON body),
 * `POST /api/logout`, and `GET /api/currentuser`.
 *
 * @module
 */
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { RateLimitedError, UnauthenticatedError, UsageError } from "../../error.ts";
import {
  assertBrowserSameOrigin,
  assertJsonType,
  clientAddress,
  readJsonObject,
} from "../../http/mod.ts";
import type { Logger } from "../../log.ts";
import { SESSION_COOKIE, type SessionStore } from "./sessions.ts";
import { LoginThrottle } from "./throttle.ts";
import type { UserStore } from "./users.ts";

/** Largest login body: a user name and a password, with room to spare. */
export const LOGIN_BODY_LIMIT = 8 * 1024;

/** A client-chosen user name as it may appear in the log: quoted, one line, at most 64 characters. */
function logSafeName(user: string): string {
  const cut = user.length > 64 ? `${user.slice(0, 64)}…` : user;
  return JSON.stringify(cut);
}

/** Options of {@linkcode authRoutes}. */
export interface AuthRoutesOptions {
  users: UserStore;
  sessions: SessionStore;
  logger: Logger;
  /** Failed-login back-off per account and per address. @default a new LoginThrottle */
  throttle?: LoginThrottle;
}

/** The login/logout sub-app (mount at `/api`; the auth middleware must let login through). */
export function authRoutes(options: AuthRoutesOptions): Hono {
  const throttle = options.throttle ?? new LoginThrottle();
  const app = new Hono();
  app.post("/login", async (c) => {
    // Before anything counts: a page elsewhere can neither sign the browser in to another
    // account nor spend the user's failed-login budget.
    assertBrowserSameOrigin(c);
    assertJsonType(c);
    const body = await readJsonObject(c, { maxBytes: LOGIN_BODY_LIMIT, maxDepth: 2 });
    const user = body.user;
    const pass = body.pass;
    if (typeof user !== "string" || typeof pass !== "string") {
      throw new UsageError("Cannot log in: 'user' and 'pass' must be strings");
    }
    const address = clientAddress(c);
    const wait = throttle.check(user, address);
    if (wait > 0) {
      throw new RateLimitedError("Too many failed logins. Please wait and try again.", {
        code: "login_throttled",
        retryAfterSeconds: wait / 1000,
      });
    }
    const account = await options.users.verifyLogin(user, pass);
    if (!account) {
      throttle.failed(user, address);
      options.logger.warn(`[SECURITY] login_failed: user=${logSafeName(user)} from=${address}`);
      throw new UnauthenticatedError("Invalid user name or password");
    }
    throttle.succeeded(user);
    const permissions = account.permissions;
    const session = options.sessions.create(user, account.stamp);
    setCookie(c, SESSION_COOKIE, session.id, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      secure: new URL(c.req.url).protocol === "https:",
    });
    options.logger.info(`User ${user} logged in`);
    return c.json({ user, permissions, csrf_token: session.csrfToken });
  });
  app.post("/logout", (c) => {
    const sid = getCookie(c, SESSION_COOKIE);
    if (sid !== undefined) options.sessions.delete(sid);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.body(null, 204);
  });
  app.get("/currentuser", (c) => {
    const p = c.get("principal");
    const sid = getCookie(c, SESSION_COOKIE);
    const session = sid === undefined ? null : options.sessions.get(sid);
    return c.json({
      name: p.user,
      permissions: p.permissions,
      via: p.via,
      ...(session ? { csrf_token: session.csrfToken } : {}),
    });
  });
  return app;
}
