/**
 * Small request helpers shared by every route: the client address and JSON bodies.
 *
 * @module
 */
import type { Context } from "hono";
import { AppError } from "../error.ts";

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

/**
 * Reads the body as a JSON object; an empty body is `{}`.
 *
 * @throws {AppError} 400 when the body is not JSON or not an object.
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(400, "Invalid JSON body");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AppError(400, "Cannot read body: expected a JSON object");
  }
  return value as Record<string, unknown>;
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
