/**
 * The compression the web app uses (Hono's `compress()`, lib/web/server.ts): which encodings,
 * which types, which answers are left alone, and that the event stream is neither compressed nor
 * buffered.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { sseResponse } from "../../../lib/http/sse.ts";

const BIG = "localbench ".repeat(800);

function app(): Hono {
  return new Hono()
    .use("*", compress())
    .get("/text", (c) => c.text(BIG))
    .get(
      "/small",
      (c) => c.body("tiny", 200, { "Content-Type": "text/plain", "Content-Length": "4" }),
    )
    .get("/png", (c) => c.body(new Uint8Array(5000), 200, { "Content-Type": "image/png" }))
    .get("/etag", (c) => c.body(BIG, 200, { "Content-Type": "text/css", "ETag": '"v1"' }))
    .get("/vary", (c) => c.body(BIG, 200, { "Content-Type": "text/html", "Vary": "Cookie" }))
    .get(
      "/encoded",
      (c) => c.body(BIG, 200, { "Content-Type": "text/plain", "Content-Encoding": "identity" }),
    )
    .get(
      "/keep",
      (c) => c.body(BIG, 200, { "Content-Type": "text/plain", "Cache-Control": "no-transform" }),
    )
    .get("/events", (c) =>
      sseResponse(c, (send) => {
        send({ id: 1, data: { type: "status", status: "idle" } });
        return () => {};
      }))
    .get("/typed", (c) => c.body(BIG, 200, { "Content-Type": c.req.query("type")! }))
    .get("/empty", (c) => c.body(null, 204));
}

const GZIP = { "Accept-Encoding": "gzip" };

async function inflate(res: Response, format: "gzip" | "deflate"): Promise<string> {
  const stream = res.body!.pipeThrough(new DecompressionStream(format));
  return await new Response(stream).text();
}

Deno.test("compress() honours the client's encodings, q=0 and the wildcard; brotli is not offered", async () => {
  const a = app();
  for (
    const [accept, enc] of [
      ["gzip, deflate, br, zstd", "gzip"],
      ["gzip", "gzip"],
      ["br;q=0, gzip;q=0.5", "gzip"],
      ["gzip;q=0", null],
      ["*", "gzip"],
      ["*;q=0, gzip", "gzip"],
      ["deflate", "deflate"],
      ["br", null],
      ["identity", null],
      ["", null],
    ]
  ) {
    const res = await a.request("/text", { headers: { "Accept-Encoding": accept! } });
    assert.equal(res.headers.get("Content-Encoding"), enc, accept!);
    await res.body?.cancel();
  }
});

Deno.test("compress() takes text, JSON, scripts and SVG but never the event stream", async () => {
  const a = app();
  const compressed = async (type: string) => {
    const res = await a.request(`/typed?type=${encodeURIComponent(type)}`, { headers: GZIP });
    await res.body?.cancel();
    return res.headers.get("Content-Encoding") === "gzip";
  };
  for (
    const t of [
      "text/html; charset=utf-8",
      "text/css",
      "text/javascript; charset=utf-8",
      "application/json",
      "application/problem+json",
      "application/manifest+json",
      "image/svg+xml",
    ]
  ) assert.ok(await compressed(t), t);
  for (const t of ["text/event-stream", "image/png", "application/octet-stream", "audio/wav"]) {
    assert.ok(!(await compressed(t)), t);
  }
});

Deno.test("compress() answers gzip or deflate as asked, with Vary and without a length", async () => {
  const a = app();
  for (const [accept, enc] of [["br, gzip", "gzip"], ["deflate", "deflate"]] as const) {
    const res = await a.request("/text", { headers: { "Accept-Encoding": accept } });
    assert.equal(res.headers.get("Content-Encoding"), enc);
    assert.equal(res.headers.get("Vary"), "Accept-Encoding");
    assert.equal(res.headers.get("Content-Length"), null);
    assert.equal(await inflate(res, enc), BIG);
  }
});

Deno.test("compress() leaves a client that accepts no encoding with the plain body and Vary", async () => {
  const res = await app().request("/text");
  assert.equal(res.headers.get("Content-Encoding"), null);
  assert.equal(res.headers.get("Vary"), "Accept-Encoding");
  assert.equal(await res.text(), BIG);
});

Deno.test("compress() skips small, binary, encoded, no-transform and empty answers", async () => {
  const a = app();
  const headers = { "Accept-Encoding": "br, gzip" };
  const small = await a.request("/small", { headers });
  assert.equal(small.headers.get("Content-Encoding"), null);
  assert.equal(await small.text(), "tiny");
  const png = await a.request("/png", { headers });
  assert.equal(png.headers.get("Content-Encoding"), null);
  assert.equal(png.headers.get("Vary"), null, "a binary body does not vary by encoding");
  assert.equal((await png.arrayBuffer()).byteLength, 5000);
  const encoded = await a.request("/encoded", { headers });
  assert.equal(encoded.headers.get("Content-Encoding"), "identity");
  await encoded.body?.cancel();
  const keep = await a.request("/keep", { headers });
  assert.equal(keep.headers.get("Content-Encoding"), null);
  assert.equal(await keep.text(), BIG);
  const empty = await a.request("/empty", { headers });
  assert.equal(empty.status, 204);
  const head = await a.request("/text", { method: "HEAD", headers });
  assert.equal(head.headers.get("Content-Encoding"), null);
});

Deno.test("compress() weakens a strong ETag of a compressed body and keeps other Vary names", async () => {
  const a = app();
  const headers = { "Accept-Encoding": "gzip" };
  const tagged = await a.request("/etag", { headers });
  assert.equal(tagged.headers.get("ETag"), 'W/"v1"');
  await tagged.body?.cancel();
  const vary = await a.request("/vary", { headers });
  assert.equal(vary.headers.get("Vary"), "Cookie, Accept-Encoding");
  await vary.body?.cancel();
});

Deno.test("compress() never compresses nor buffers the event stream", async () => {
  const res = await app().request("/events", { headers: { "Accept-Encoding": "br, gzip" } });
  assert.equal(res.headers.get("Content-Encoding"), null);
  assert.match(res.headers.get("Content-Type")!, /^text\/event-stream/);
  const reader = res.body!.getReader();
  // The stream stays open (heartbeat); the first event must arrive without its end.
  let text = "";
  while (!text.includes('"status"')) {
    const { value, done } = await reader.read();
    assert.ok(!done, "the stream ended before its first event");
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
});
