/**
 * Answers a request with JSON encoded once (e.g. a store snapshot): 304 when the client holds
 * the same ETag, else the shared bytes.
 *
 * @module
 */
import type { Context } from "hono";

/** A JSON body encoded once, and its entity tag. */
export interface EncodedJson {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** The response for `snapshot`, honouring `If-None-Match`. */
export function snapshotResponse(c: Context, snapshot: EncodedJson): Response {
  const headers = { "ETag": snapshot.etag, "Cache-Control": "no-cache" };
  if (c.req.header("If-None-Match") === snapshot.etag) return c.body(null, 304, headers);
  return c.body(snapshot.bytes, 200, { ...headers, "Content-Type": "application/json" });
}
