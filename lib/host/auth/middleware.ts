/**
 * Authentication and permission middleware: an `X-Api-Key` header or a session cookie (with a
 * same-origin `Origin` and `X-CSRF-Token` on state-changing requests) sets the request's
 * principal; nothing else passes.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { ForbiddenError, UnauthenticatedError } from "../../error.ts";
import { assertBrowserSameOrigin, isStateChanging } from "../../http/mod.ts";
import type { Permission } from "../plugin.ts";
import { defaultPermissionFor, hasPermission } from "../permissions.ts";
import { SESSION_COOKIE, type SessionStore } from "./sessions.ts";
import type { Principal, UserStore } from "./users.ts";

declare module "hono" {
  interface ContextVariableMap {
    principal: Principal;
  }
}

/** Options of {@linkcode authenticate}. */
export interface AuthenticateOptions {
  users: UserStore;
  sessions: SessionStore;
  /** `METHOD path` pairs that need no authentication (e.g. `POST /api/login`). @default [] */
  publicRoutes?: string[];
}

/**
 * Resolves the principal of a request from its key or session, without enforcing anything; the
 * permissions are the account's as stored now. Returns null when neither is present; throws
 * 401 for a wrong key or a dead session (expired, password changed, user deleted) and 403 for
 * a session request that changes state from another origin (or without `Origin` and
 * `Sec-Fetch-Site: same-origin`) or without its CSRF token.
 */
export async function resolvePrincipal(
  c: Context,
  options: Pick<AuthenticateOptions, "users" | "sessions">,
): Promise<Principal | null> {
  const key = c.req.header("X-Api-Key");
  if (key !== undefined) {
    const principal = await options.users.verifyKey(key.trim());
    if (!principal) throw new UnauthenticatedError("Invalid API key");
    return principal;
  }
  const sid = getCookie(c, SESSION_COOKIE);
  if (sid === undefined) return null;
  const session = options.sessions.get(sid);
  if (!session) throw new UnauthenticatedError("Session expired, please log in again");
  // The account as it is now: a changed password or a deleted user ends the session here.
  const account = await options.users.account(session.user);
  if (!account || account.stamp !== session.stamp) {
    options.sessions.delete(sid);
    throw new UnauthenticatedError("Session ended: the account changed, please log in again", {
      code: "session_ended",
    });
  }
  if (isStateChanging(c.req.method)) {
    // A session is a cookie the browser sends on its own: the request must come from our page.
    assertBrowserSameOrigin(c);
    if (!options.sessions.checkCsrf(session, c.req.header("X-CSRF-Token"))) {
      throw new ForbiddenError("Missing or invalid CSRF token");
    }
  }
  return { user: session.user, permissions: account.permissions, via: "session" };
}

/**
 * Middleware: every request needs a valid API key or session (401 otherwise), except the
 * listed public routes.
 */
export function authenticate(options: AuthenticateOptions): MiddlewareHandler {
  const open = new Set(options.publicRoutes ?? []);
  return async function authenticateMiddleware(c, next) {
    if (open.has(`${c.req.method} ${c.req.path}`)) return await next();
    const principal = await resolvePrincipal(c, options);
    if (!principal) {
      throw new UnauthenticatedError("Authentication required: send X-Api-Key or log in");
    }
    c.set("principal", principal);
    await next();
  };
}

/** Throws 403 unless the request's principal holds `needed`. */
export function assertPermission(c: Context, needed: Permission): void {
  const principal = c.get("principal");
  if (!principal) throw new UnauthenticatedError("Authentication required");
  if (!hasPermission(principal.permissions, needed)) {
    throw new ForbiddenError(`Permission ${needed} required`);
  }
}

/** Middleware: the request's principal must hold `needed` (403 otherwise). */
export function requirePermission(needed: Permission): MiddlewareHandler {
  return async function requirePermissionMiddleware(c, next) {
    assertPermission(c, needed);
    await next();
  };
}

/**
 * Middleware: the permission depends on the method (defaults GET/HEAD → STATUS, others →
 * CONTROL, overridable per method).
 */
export function requireMethodPermission(
  overrides: Partial<Record<string, Permission>> = {},
): MiddlewareHandler {
  return async function requireMethodPermissionMiddleware(c, next) {
    const method = c.req.method.toUpperCase();
    assertPermission(c, overrides[method] ?? defaultPermissionFor(method));
    await next();
  };
}
