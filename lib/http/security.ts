/**
 * Two guards of the dashboard: POSTs from another origin are refused (CSRF), and when the server
 * is bound to a non-loopback address the control endpoints need the configured token.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { AppError } from "../error.ts";
import { isStateChanging } from "./request.ts";

/** The header carrying the dashboard token (a bearer `Authorization` header works too). */
export const TOKEN_HEADER = "X-Localbench-Token";

/** Whether a listen address only accepts local connections. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Refuses state-changing requests whose `Origin` is not the server's own (403). Requests
 * without `Origin` (command-line clients, the tray) pass unless the browser marks them
 * `Sec-Fetch-Site: cross-site`.
 */
export function sameOrigin(): MiddlewareHandler {
  return async function sameOriginCheck(c, next) {
    if (isStateChanging(c.req.method)) {
      const origin = c.req.header("Origin");
      const host = c.req.header("Host") ?? new URL(c.req.url).host;
      if (origin !== undefined) {
        let originHost: string | null = null;
        try {
          originHost = origin === "null" ? null : new URL(origin).host;
        } catch {
          originHost = null;
        }
        if (originHost !== host) {
          throw new AppError(403, `Cross-origin request refused: origin '${origin}'`, {
            code: "cross_origin",
          });
        }
      } else if (c.req.header("Sec-Fetch-Site") === "cross-site") {
        throw new AppError(403, "Cross-origin request refused", { code: "cross_origin" });
      }
    }
    await next();
  };
}

/** Constant-time comparison of two strings. */
function safeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * Requires the token (header {@linkcode TOKEN_HEADER} or `Authorization: Bearer`) when `token`
 * is not null; 401 when it is missing or wrong. With `null`, everything passes (loopback).
 */
export function requireToken(token: string | null): MiddlewareHandler {
  return async function tokenCheck(c, next) {
    if (token !== null) {
      const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
      const given = c.req.header(TOKEN_HEADER) ?? bearer ?? "";
      if (!safeEqual(given, token)) {
        throw new AppError(401, "Cannot control the benchmark: missing or wrong token", {
          code: "unauthorized",
        });
      }
    }
    await next();
  };
}

/** A random token (32 hex characters). */
export function randomToken(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}
