/**
 * Static files with cache headers for the dashboard: hashed chunks (`chunk-<hash>.js`) are
 * immutable for a year; everything else is revalidated with an ETag (`no-cache`) and answered
 * with 304 when unchanged. Paths are confined to the root folder; a missing file falls through.
 *
 * @module
 */
import { extname, join, normalize } from "node:path";
import type { MiddlewareHandler } from "hono";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".wav": "audio/wav",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

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
 * import { serveAssets } from "./fw_static.ts";
 * const app = new Hono();
 * app.use("/static/*", serveAssets({ root: "./static", prefix: "/static" }));
 * ```
 */
export function serveAssets(options: AssetOptions): MiddlewareHandler {
  const prefix = (options.prefix ?? "").replace(/\/+$/, "");
  return async function assets(c, next) {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return await next();
    if (!c.req.path.startsWith(`${prefix}/`)) return await next();
    let rel: string;
    try {
      rel = decodeURIComponent(c.req.path.slice(prefix.length));
    } catch {
      return await next();
    }
    rel = normalize(rel).replace(/^\/+/, "");
    if (rel === "" || rel.includes("\0") || rel.split("/").some((p) => p.startsWith("."))) {
      return await next();
    }
    const path = join(options.root, rel);
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return await next();
      throw err;
    }
    if (!info.isFile) return await next();
    const etag = `W/"${info.size.toString(36)}-${(info.mtime?.getTime() ?? 0).toString(36)}"`;
    const headers = {
      "Content-Type": TYPES[extname(path)] ?? "application/octet-stream",
      "Cache-Control": cacheControlOf(rel.split("/").at(-1)!),
      "ETag": etag,
      "X-Content-Type-Options": "nosniff",
    };
    if (c.req.header("If-None-Match") === etag) return c.body(null, 304, headers);
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    return c.body(await Deno.readFile(path), 200, headers);
  };
}
