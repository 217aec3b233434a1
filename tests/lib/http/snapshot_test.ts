import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { acceptsGzip, type EncodedJson, snapshotResponse } from "../../../lib/http/snapshot.ts";

/** An app answering one snapshot behind the compress middleware, as the dashboard does. */
function app(snapshot: EncodedJson): Hono {
  const a = new Hono();
  a.use("*", compress());
  a.get("/", (c) => snapshotResponse(c, snapshot));
  return a;
}

const big = (): EncodedJson => ({
  bytes: new TextEncoder().encode(
    JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => [i, "x"]) }),
  ),
  etag: 'W/"results-7-1"',
});

Deno.test("a snapshot is gzip-compressed once and sent so to every client that accepts gzip", async () => {
  const snapshot = big();
  const a = app(snapshot);
  const res = await a.request("/", { headers: { "Accept-Encoding": "gzip, deflate, br" } });
  assert.equal(res.headers.get("Content-Encoding"), "gzip");
  assert.equal(res.headers.get("Vary"), "Accept-Encoding");
  const body = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual(new Uint8Array(gunzipSync(body)), snapshot.bytes);
  const kept = snapshot.gzip;
  assert.ok(kept, "the compressed bytes are kept with the snapshot");
  const again = await a.request("/", { headers: { "Accept-Encoding": "gzip" } });
  assert.deepEqual(new Uint8Array(await again.arrayBuffer()), body);
  assert.equal(snapshot.gzip, kept, "not compressed again");
});

Deno.test("a client without gzip gets the JSON as it is, and a matching ETag 304", async () => {
  const snapshot = big();
  const a = app(snapshot);
  for (const accept of [undefined, "identity", "gzip;q=0, identity", "br"]) {
    const headers: Record<string, string> = accept ? { "Accept-Encoding": accept } : {};
    const res = await a.request("/", { headers });
    assert.equal(res.headers.get("Content-Encoding"), null, String(accept));
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), snapshot.bytes);
  }
  const res = await a.request("/", { headers: { "If-None-Match": snapshot.etag } });
  assert.equal(res.status, 304);
  assert.equal(snapshot.gzip, undefined, "nothing compressed for them");
});

Deno.test("acceptsGzip() reads Accept-Encoding's names and weights", () => {
  assert.equal(acceptsGzip("gzip"), true);
  assert.equal(acceptsGzip("br, GZIP;q=0.5"), true);
  assert.equal(acceptsGzip("*"), true);
  assert.equal(acceptsGzip("gzip;q=0"), false);
  assert.equal(acceptsGzip("gzip;q=0, *"), false);
  assert.equal(acceptsGzip("*;q=0"), false);
  assert.equal(acceptsGzip("deflate, br"), false);
  assert.equal(acceptsGzip(""), false);
  assert.equal(acceptsGzip(undefined), false);
});
