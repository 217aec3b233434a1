/**
 * Compressing answers: text answers (pages, JSON, bundles) leave gzip-compressed when the client
 * accepts it, except small ones. Hono's `compress()` skips an answer under its threshold (1 KiB)
 * only when the answer states its `Content-Length`, and `c.json()` states none: so every JSON
 * answer, even `{"ok":true}`, went through a `CompressionStream` of its own (a zlib state and a
 * stream pipeline per request, which took 0.5–1 ms of the 0.3 ms request `GET /files` is).
 * {@linkcode compressAnswers} gives a JSON answer its length first.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { compress } from "hono/compress";

/** Whether a `Content-Type` names JSON (`application/json`, `+json`). */
function isJson(type: string | null): boolean {
  if (type === null) return false;
  const bare = type.split(";")[0]!.trim().toLowerCase();
  return bare === "application/json" || bare.endsWith("+json");
}

/**
 * Hono's `compress()` (threshold 1 KiB), with JSON answers sized first so that a small one
 * leaves uncompressed. JSON answers here are always whole strings, never streams.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { compressAnswers } from "./compress.ts";
 * const app = new Hono().use("*", compressAnswers()).get("/", (c) => c.json({ ok: true }));
 * const res = await app.request("/", { headers: { "Accept-Encoding": "gzip" } });
 * assert.equal(res.headers.get("Content-Encoding"), null);
 * assert.equal(res.headers.get("Content-Length"), "11");
 * ```
 */
export function compressAnswers(): MiddlewareHandler {
  const gzip = compress();
  return (c, next) =>
    gzip(c, async () => {
      await next();
      const res = c.res;
      if (
        !res.body || res.headers.has("Content-Length") || !isJson(res.headers.get("Content-Type"))
      ) {
        return;
      }
      const bytes = await res.arrayBuffer();
      c.res = new Response(bytes, res);
      c.res.headers.set("Content-Length", String(bytes.byteLength));
    });
}
