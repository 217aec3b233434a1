/**
 * Browser-facing guards of the servers: state-changing requests from another origin are refused
 * (the full origin: scheme, host and port), and the token check (header, bearer, or the cookie
 * a `?token=` link sets) used by the dashboard for every route when bound beyond loopback and
 * for the lifecycle routes (shutdown) always.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { ForbiddenError, UnauthenticatedError, UsageError } from "../error.ts";
import { safeEqual } from "../safe_equal.ts";
import { isStateChanging } from "./request.ts";

/** The header carrying the dashboard token (a bearer `Authorization` header works too). */
export const TOKEN_HEADER = "X-Localbench-Token";

/** The cookie a `?token=` link sets so that a browser can use a token-protected dashboard. */
export const TOKEN_COOKIE = "localbench_token";

/**
 * Whether the request's `Origin` (when present) is the server's own origin: same scheme, host
 * and port as the request URL (built from the allow-listed `Host`). `Origin: null` is foreign.
 */
export function isSameOrigin(c: Context): boolean {
  const origin = c.req.header("Origin");
  if (origin === undefined) return true;
  try {
    return origin !== "null" && new URL(origin).origin === new URL(c.req.url).origin;
  } catch {
    return false;
  }
}

function crossOrigin(c: Context): ForbiddenError {
  const origin = (c.req.header("Origin") ?? "").slice(0, 200);
  return new ForbiddenError(`Cross-origin request refused: origin '${origin}'`, {
    code: "cross_origin",
  });
}

/**
 * Requires proof that a request comes from the server's own pages, for a request a browser may
 * send with the user's cookies or one that signs in: `Origin` is the server's origin
 * ({@linkcode isSameOrigin}), or, without `Origin`, `Sec-Fetch-Site: same-origin`. Every browser
 * sends one of them on a POST, PUT, PATCH or DELETE; a request with neither is refused too, so a
 * browser that sends neither cannot be used against the server (a script sends `Origin`, or uses
 * an API key).
 *
 * @throws {ForbiddenError} `cross_origin` (a foreign origin or fetch site), `origin_required`
 * (neither header).
 */
export function assertBrowserSameOrigin(c: Context): void {
  if (c.req.header("Origin") !== undefined) {
    if (!isSameOrigin(c)) throw crossOrigin(c);
    return;
  }
  const site = c.req.header("Sec-Fetch-Site");
  if (site === "same-origin") return;
  if (site !== undefined) throw crossOrigin(c);
  throw new ForbiddenError(
    "Cannot accept the request: send the page's Origin (or Sec-Fetch-Site: same-origin)",
    { code: "origin_required" },
  );
}

/** Whether a `Content-Type` value is JSON (`application/json` or a `+json` type). */
export function isJsonType(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Requires a JSON `Content-Type`: a page elsewhere can post `text/plain` or a form to any
 * server without asking, but JSON only to a server that allows it (which these do not).
 *
 * @throws {UsageError} `json_required`.
 */
export function assertJsonType(c: Context): void {
  if (!isJsonType(c.req.header("Content-Type"))) {
    throw new UsageError("Cannot read the request: send the body as application/json", {
      code: "json_required",
    });
  }
}

/**
 * Refuses state-changing requests from another origin (403). One carrying a cookie (a session
 * or the dashboard's token cookie) must prove it comes from the server's own page
 * ({@linkcode assertBrowserSameOrigin}); one without cookies (command-line clients, the tray,
 * nothing a browser would authenticate) only must not name a foreign `Origin` or
 * `Sec-Fetch-Site: cross-site`.
 */
export function sameOrigin(): MiddlewareHandler {
  return async function sameOriginCheck(c, next) {
    if (isStateChanging(c.req.method)) {
      if (c.req.header("Cookie") !== undefined) assertBrowserSameOrigin(c);
      else if (!isSameOrigin(c)) throw crossOrigin(c);
      else if (
        c.req.header("Origin") === undefined && c.req.header("Sec-Fetch-Site") === "cross-site"
      ) {
        throw new ForbiddenError("Cross-origin request refused", { code: "cross_origin" });
      }
    }
    await next();
  };
}

/** The token a request carries: header, bearer, or cookie (in that order); "" when none. */
function givenToken(c: Context): string {
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  return c.req.header(TOKEN_HEADER) ?? bearer ?? getCookie(c, TOKEN_COOKIE) ?? "";
}

/**
 * Checks a configured token: a token must not be empty (an empty one would let everyone in).
 *
 * @throws {UsageError} `empty_token` naming where it came from.
 */
export function assertUsableToken(token: string, source: string): string {
  if (token.trim() === "") {
    throw new UsageError(`Cannot use an empty token (${source}): set a value or unset it`, {
      code: "empty_token",
    });
  }
  return token;
}

/**
 * Requires `token` (header {@linkcode TOKEN_HEADER}, `Authorization: Bearer`, or the cookie
 * {@linkcode TOKEN_COOKIE}); 401 when missing or wrong. A GET carrying the right `?token=`
 * sets the cookie (HttpOnly, SameSite=Strict) and redirects to the same URL without it, so the
 * link printed at start opens the dashboard in a browser.
 *
 * @throws {TypeError} when `token` is empty.
 */
export function requireToken(token: string): MiddlewareHandler {
  if (token.trim() === "") throw new TypeError("Cannot require an empty token");
  return async function tokenCheck(c, next): Promise<Response | void> {
    const query = c.req.method === "GET" ? c.req.query("token") : undefined;
    if (query !== undefined && safeEqual(query, token)) {
      const url = new URL(c.req.url);
      url.searchParams.delete("token");
      setCookie(c, TOKEN_COOKIE, token, {
        httpOnly: true,
        sameSite: "Strict",
        path: "/",
        secure: url.protocol === "https:",
      });
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    if (!safeEqual(givenToken(c), token)) {
      throw new UnauthenticatedError("Cannot answer: missing or wrong token", {
        code: "unauthorized",
      });
    }
    await next();
  };
}

/** A random token (32 hex characters). */
export function randomToken(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}
