/**
 * Compressing answers: text answers (pages, JSON, bundles) leave gzip-compressed when the client
 * accepts it, except small ones. Hono's `compress()` skips an answer under its threshold (1 KiB)
 * only when the answer states its `Content-Length`, and `c.json()` states none: so every JSON
 * answer, even `{"ok":true}`, went through a `CompressionStream` of its own (a zlib state and a
 * stream pipeline per request, which took 0.5–1 ms of the 0.3 ms request `GET /files` is).
 * {@linkcode compressAnswers} reads a JSON answer's first kilobyte to tell.
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

/** Hono's `compress()` threshold: answers under it leave as they are. */
const THRESHOLD = 1024;

/**
 * The body of `res` read up to more than {@linkcode THRESHOLD} bytes: the whole body when it is
 * smaller (`rest` null), else the chunks read and a stream of all of it (those chunks, then the
 * rest, unread): a large answer is never held whole here.
 */
async function peek(
  body: ReadableStream<Uint8Array>,
): Promise<{ head: Uint8Array[]; size: number; rest: ReadableStream<Uint8Array> | null }> {
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size <= THRESHOLD) {
    const { value, done } = await reader.read();
    if (done) return { head, size, rest: null };
    head.push(value);
    size += value.byteLength;
  }
  const queued = [...head];
  const rest = new ReadableStream<Uint8Array>({
    async pull(ctl) {
      const next = queued.shift();
      if (next) return ctl.enqueue(next);
      const { value, done } = await reader.read();
      if (done) ctl.close();
      else ctl.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { head, size, rest };
}

/**
 * Hono's `compress()` (threshold 1 KiB), with a JSON answer's first kilobyte read first: a small
 * one leaves uncompressed with its length, a larger one is compressed as a stream (never read
 * whole here). JSON answers here are whole strings, never long-lived streams.
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
  const gzip = compress({ threshold: THRESHOLD });
  return (c, next) =>
    gzip(c, async () => {
      await next();
      const res = c.res;
      if (
        !res.body || res.headers.has("Content-Length") || !isJson(res.headers.get("Content-Type"))
      ) {
        return;
      }
      const { head, size, rest } = await peek(res.body);
      if (rest) {
        c.res = new Response(rest, res);
        return;
      }
      const whole = new Uint8Array(size);
      let at = 0;
      for (const chunk of head) {
        whole.set(chunk, at);
        at += chunk.byteLength;
      }
      c.res = new Response(whole, res);
      c.res.headers.set("Content-Length", String(size));
    });
}
