/**
 * Response compression: text bodies (pages, JSON, scripts, styles, SVG) are compressed with
 * brotli or gzip, as the request's `Accept-Encoding` prefers, while they stream (nothing is
 * buffered). The event stream, WebSocket upgrades, ranges, empty and small bodies and anything
 * already encoded or marked `no-transform` are left alone. Every compressible response says
 * `Vary: Accept-Encoding`, compressed or not, so a cache never hands one client's encoding to
 * another; a compressed body's strong ETag becomes weak.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";

/** An encoding this server produces. */
export type Encoding = "br" | "gzip";

/** Options of {@linkcode compress}. */
export interface CompressOptions {
  /** Bodies with a known length below this many bytes are sent as they are. @default 1024 */
  threshold?: number;
}

const COMPRESSIBLE =
  /^(text\/(?!event-stream)[\w.+-]+|application\/([\w.+-]+\+)?(json|javascript|xml)|application\/manifest\+json|image\/svg\+xml)\b/i;

/** Whether a `Content-Type` is text worth compressing (never `text/event-stream`). */
export function isCompressible(contentType: string | null): boolean {
  return contentType !== null && COMPRESSIBLE.test(contentType.trim());
}

/**
 * The encoding to answer for an `Accept-Encoding` value: brotli before gzip when both are
 * acceptable (`q` > 0, `*` included), null for neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pickEncoding } from "./compress.ts";
 * assert.equal(pickEncoding("gzip, deflate, br"), "br");
 * assert.equal(pickEncoding("br;q=0, gzip"), "gzip");
 * assert.equal(pickEncoding("identity"), null);
 * ```
 */
export function pickEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: Encoding) => (q.get(name) ?? q.get("*") ?? 0) > 0;
  if (accepts("br")) return "br";
  if (accepts("gzip")) return "gzip";
  return null;
}

/** Adds `Accept-Encoding` to a `Vary` header value (kept once; `*` stays `*`). */
function varyWith(vary: string | null): string {
  if (!vary) return "Accept-Encoding";
  const names = vary.split(",").map((v) => v.trim().toLowerCase());
  if (names.includes("*") || names.includes("accept-encoding")) return vary;
  return `${vary}, Accept-Encoding`;
}

/**
 * Middleware compressing what the next handlers answered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { compress } from "./compress.ts";
 * const app = new Hono().use("*", compress()).get("/", (c) => c.text("x".repeat(5000)));
 * const res = await app.request("/", { headers: { "Accept-Encoding": "gzip" } });
 * assert.equal(res.headers.get("Content-Encoding"), "gzip");
 * assert.equal(res.headers.get("Vary"), "Accept-Encoding");
 * ```
 */
export function compress(options: CompressOptions = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 1024;
  if (!Number.isInteger(threshold) || threshold < 0) {
    throw new RangeError("Cannot compress: 'threshold' must be a non-negative integer");
  }
  return async function compressBody(c, next) {
    await next();
    const res = c.res;
    if (res.status === 101 || !isCompressible(res.headers.get("Content-Type"))) return;
    const headers = new Headers(res.headers);
    headers.set("Vary", varyWith(headers.get("Vary")));
    const encoding = pickEncoding(c.req.header("Accept-Encoding"));
    const length = headers.get("Content-Length");
    const skip = encoding === null || res.body === null || c.req.method === "HEAD" ||
      res.status === 204 || res.status === 206 || res.status === 304 ||
      headers.has("Content-Encoding") || headers.has("Content-Range") ||
      /\bno-transform\b/i.test(headers.get("Cache-Control") ?? "") ||
      (length !== null && Number(length) < threshold);
    if (!skip) {
      headers.set("Content-Encoding", encoding);
      headers.delete("Content-Length");
      const etag = headers.get("ETag");
      if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
    }
    const body = skip ? res.body : res.body!.pipeThrough(
      new CompressionStream((encoding === "br" ? "brotli" : "gzip") as CompressionFormat),
    );
    c.res = undefined;
    c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
}
