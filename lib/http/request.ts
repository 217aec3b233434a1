/**
 * Small request helpers shared by every route: the client address, the state-changing methods
 * and attachments. JSON bodies are read by `./body.ts` (re-exported here).
 *
 * @module
 */
import type { Context } from "hono";
export { readJsonObject } from "./body.ts";

/**
 * The client's address as the server saw it (`Deno.ServeHandlerInfo.remoteAddr`), or
 * `"unknown"` when the request did not come through a socket (tests using `app.request()`
 * may pass `{ remoteAddr: { hostname } }` as the env argument).
 */
export function clientAddress(c: Context): string {
  const env = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  const host = env?.remoteAddr?.hostname;
  return typeof host === "string" && host !== "" ? host : "unknown";
}

/** Whether a method changes state (everything but GET, HEAD and OPTIONS). */
export function isStateChanging(method: string): boolean {
  return !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
}

/**
 * A `Content-Disposition` value for a download, with an RFC 5987 fallback for non-ASCII names.
 */
export function attachment(filename: string): string {
  const ascii = /^[\x20-\x7e]*$/.test(filename) && !/["\\]/.test(filename);
  return ascii
    ? `attachment; filename="${filename}"`
    : `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
