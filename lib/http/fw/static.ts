/**
 * Static files with cache headers for the dashboard: hashed chunks (`chunk-<hash>.js`) are
 * immutable for a year; everything else is revalidated with an ETag (`no-cache`) and answered
 * with 304 when unchanged. Files are looked up through `lib/named_file.ts` (each segment decoded
 * once and plain, confined to the root, the opened handle verified); anything else falls through.
 * Hono's `serveStatic()` is not used: it serves hidden files and links leading out of the folder,
 * and sends no ETag (docs/decisions.md).
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { getMimeType } from "hono/utils/mime";
import {
  decodeSegments,
  isRefusal,
  type NamedFile,
  openNamedFile,
  readNamedFile,
} from "../../named_file.ts";

/** Options of {@linkcode serveAssets}. */
export interface AssetOptions {
  /** Folder served at the mount point. */
  root: string;
  /** URL prefix removed before looking the file up (`/static` serves `/static/...`). @default "" */
  prefix?: string;
}

/** The `Cache-Control` value for a file name. */
export function cacheControlOf(name: string): string {
  return /^chunk-[A-Za-z0-9_-]{6,}\.js$/.test(name)
    ? "public, max-age=31536000, immutable"
    : "no-cache";
}

/**
 * Serves files under `root` for GET and HEAD. Anything it does not serve (other methods or
 * paths, missing files, folders, hidden names, escapes) falls through (`next()`).
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { serveAssets } from "./static.ts";
 * const app = new Hono();
 * app.use("/static/*", serveAssets({ root: "./static", prefix: "/static" }));
 * ```
 */
export function serveAssets(options: AssetOptions): MiddlewareHandler {
  const prefix = (options.prefix ?? "").replace(/\/+$/, "");
  return async function assets(c, next) {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return await next();
    // The raw path, decoded here exactly once per segment (never Hono's decoded path).
    const raw = new URL(c.req.url).pathname;
    if (!raw.startsWith(`${prefix}/`)) return await next();
    const segments = decodeSegments(raw.slice(prefix.length + 1));
    if (segments === null) return await next();
    let opened: NamedFile;
    try {
      opened = await openNamedFile(options.root, segments.join("/"), { subfolders: true });
    } catch (err) {
      if (isRefusal(err)) return await next();
      throw err;
    }
    const { info, file } = opened;
    const name = segments.at(-1)!;
    const etag = `W/"${info.size.toString(36)}-${(info.mtime?.getTime() ?? 0).toString(36)}"`;
    const headers = {
      "Content-Type": getMimeType(name) ?? "application/octet-stream",
      "Cache-Control": cacheControlOf(name),
      "ETag": etag,
      "Content-Length": String(info.size),
      "X-Content-Type-Options": "nosniff",
    };
    if (c.req.header("If-None-Match") === etag || c.req.method === "HEAD") {
      file.close();
      return c.body(null, c.req.method === "HEAD" ? 200 : 304, headers);
    }
    return c.body(await readNamedFile(opened), 200, headers);
  };
}
