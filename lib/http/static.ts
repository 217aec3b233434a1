/**
 * Serving files of one folder under a URL prefix, with content types, no directory listing and
 * no path escaping the folder.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".wav": "audio/wav",
  ".txt": "text/plain; charset=utf-8",
};

/** Options of {@linkcode serveFolder}. */
export interface ServeFolderOptions {
  /** URL prefix, e.g. `/static`. */
  prefix: string;
  /** Absolute folder path. */
  root: string;
  /** `Cache-Control` value. @default "no-cache" */
  cacheControl?: string;
}

/**
 * Middleware serving GET/HEAD requests under `prefix` from `root`. Anything it does not serve
 * (other methods or paths, missing files, folders, hidden names, escapes) goes to `next()`.
 */
export function serveFolder(options: ServeFolderOptions): MiddlewareHandler {
  const prefix = options.prefix.replace(/\/$/, "") + "/";
  return async function serveFolderMiddleware(c, next) {
    const path = c.req.path;
    if (!path.startsWith(prefix) || !["GET", "HEAD"].includes(c.req.method)) return await next();
    let rel: string;
    try {
      rel = decodeURIComponent(path.slice(prefix.length));
    } catch {
      return await next();
    }
    const full = normalize(join(options.root, rel));
    if (
      rel.includes("\0") || !full.startsWith(options.root + sep) ||
      rel.split("/").some((p) => p.startsWith("."))
    ) {
      return await next();
    }
    try {
      const st = await Deno.stat(full);
      if (!st.isFile) return await next();
      const file = await Deno.open(full, { read: true });
      return c.body(file.readable, 200, {
        "Content-Type": TYPES[extname(full)] ?? "application/octet-stream",
        "Content-Length": String(st.size),
        "Cache-Control": options.cacheControl ?? "no-cache",
        "X-Content-Type-Options": "nosniff",
      });
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return await next();
      throw err;
    }
  };
}
