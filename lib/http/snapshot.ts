/**
 * Answers a request with JSON encoded once (e.g. a store snapshot): 304 when the client holds
 * the same ETag, else the shared bytes — gzip-compressed once per snapshot for the clients that
 * accept gzip, instead of once per request by the compress middleware (which leaves a response
 * with a `Content-Encoding` alone): compressing the results table took longer than computing it
 * (perf/dashboard_api_postgres.ts).
 *
 * @module
 */
import { gzipSync } from "node:zlib";
import type { Context } from "hono";

/** A JSON body encoded once, and its entity tag. */
export interface EncodedJson {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
  /** The bytes gzip-compressed, made by the first response that sends them. */
  gzip?: Uint8Array<ArrayBuffer>;
}

/** Bodies smaller than this go as they are (the compress middleware's threshold). */
const THRESHOLD = 1024;

/**
 * Whether `accept` (an `Accept-Encoding` header) takes gzip: named with a weight above 0, or not
 * named and `*` is (`gzip;q=0` refuses it whatever `*` says).
 */
export function acceptsGzip(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights = new Map(
    accept.split(",").map((part) => {
      const [name = "", ...params] = part.trim().toLowerCase().split(";").map((s) => s.trim());
      const q = params.find((p) => p.startsWith("q="));
      return [name, q === undefined ? 1 : Number(q.slice(2))] as const;
    }),
  );
  return (weights.get("gzip") ?? weights.get("*") ?? 0) > 0;
}

/** The response for `snapshot`, honouring `If-None-Match` and `Accept-Encoding`. */
export function snapshotResponse(c: Context, snapshot: EncodedJson): Response {
  const headers = { "ETag": snapshot.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding" };
  if (c.req.header("If-None-Match") === snapshot.etag) return c.body(null, 304, headers);
  const json = { ...headers, "Content-Type": "application/json" };
  if (snapshot.bytes.byteLength < THRESHOLD || !acceptsGzip(c.req.header("Accept-Encoding"))) {
    return c.body(snapshot.bytes, 200, json);
  }
  // Level 1: a third of the time of the default level, for a few percent more bytes.
  snapshot.gzip ??= new Uint8Array(gzipSync(snapshot.bytes, { level: 1 }));
  return c.body(snapshot.gzip, 200, { ...json, "Content-Encoding": "gzip" });
}
