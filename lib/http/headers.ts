/**
 * Security headers on every response of both servers: a strict Content-Security-Policy (pages
 * load only their own scripts, styles, images and connections; no inline script or style; no
 * framing), `X-Frame-Options` for older browsers, `nosniff` and a same-origin referrer.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";

/** The Content-Security-Policy of every page. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "media-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

/**
 * Middleware adding the security headers to whatever the next handlers answered (a WebSocket
 * upgrade is left as it is).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { securityHeaders } from "./headers.ts";
 * const app = new Hono().use("*", securityHeaders()).get("/", (c) => c.html("<p>hi</p>"));
 * const res = await app.request("/");
 * assert.ok(res.headers.get("Content-Security-Policy")!.includes("frame-ancestors 'none'"));
 * ```
 */
export function securityHeaders(): MiddlewareHandler {
  return async function addSecurityHeaders(c, next) {
    await next();
    if (c.res.status === 101) return;
    try {
      for (const [k, v] of Object.entries(HEADERS)) c.res.headers.set(k, v);
    } catch {
      // Immutable headers (e.g. Response.redirect): answer a copy carrying them.
      const copy = new Response(c.res.body, c.res);
      for (const [k, v] of Object.entries(HEADERS)) copy.headers.set(k, v);
      c.res = copy;
    }
  };
}
