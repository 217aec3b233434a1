/**
 * Error answers of the web app: `routes/_404.tsx` for a path that matches nothing and
 * `routes/_500.tsx` for any other failure, rendered in the app shell and the root layout for a
 * browser (a request whose `Accept` names `text/html`, outside the API paths); everyone else (API
 * clients, `fetch` from the islands, `curl`) gets the JSON body `{"error", "code"}`.
 *
 * @module
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "../../log.ts";
import { describeError, type ErrorInfo, errorResponse, NOT_FOUND } from "../error_handler.ts";
import { renderDocument } from "./render.ts";
import { RouteTree, TREE_ROOT } from "./tree.ts";
import type { AnyComponent, Manifest } from "./types.ts";

/** Options of {@linkcode errorPages}. */
export interface ErrorPagesOptions {
  /** Where 5xx failures are logged. */
  logger?: Logger;
  /** URL of the island boot script. @default "/_islands/boot.js" */
  bootScript?: string;
  /** The paths of APIs (and everything below each): always JSON. @default ["/api"] */
  apiPaths?: readonly string[];
}

/**
 * Whether a request is a browser's asking for a page: `Accept` names `text/html` and the path
 * is not at or below one of `apiPaths`.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { wantsHtml } from "./error_pages.ts";
 * const app = new Hono().get("*", (c) => c.text(String(wantsHtml(c))));
 * const page = await app.request("/x", { headers: { Accept: "text/html,*\/*;q=0.8" } });
 * if ((await page.text()) !== "true") throw new Error("a browser wants HTML");
 * if ((await (await app.request("/x")).text()) !== "false") throw new Error("curl wants JSON");
 * ```
 */
export function wantsHtml(c: Context, apiPaths: readonly string[] = ["/api"]): boolean {
  const path = c.req.path;
  if (apiPaths.some((p) => path === p || path.startsWith(`${p}/`))) return false;
  return /\btext\/html\b/.test(c.req.header("Accept") ?? "");
}

/** The `onError` and `notFound` handlers of a web app built from `manifest`. */
export function errorPages(
  manifest: Manifest,
  options: ErrorPagesOptions = {},
): { onError: ErrorHandler; notFound: NotFoundHandler } {
  const tree = new RouteTree(manifest, []);
  const app = tree.special(TREE_ROOT, "_app")?.default as AnyComponent | undefined;
  const layouts = tree.layouts(`${TREE_ROOT}/_404.tsx`)
    .map((m) => m.default as AnyComponent);
  const pages = {
    notFound: tree.special(TREE_ROOT, "_404")?.default as AnyComponent | undefined,
    error: tree.special(TREE_ROOT, "_500")?.default as AnyComponent | undefined,
  };
  const answer = (c: Context, info: ErrorInfo): Response => {
    const Page = info.status === 404 ? pages.notFound : pages.error;
    if (!Page || !wantsHtml(c, options.apiPaths)) {
      return errorResponse(c, info.status, info.error, info.code);
    }
    // A request refused for its malformed Host has no URL to render a page for.
    const url = URL.canParse(c.req.url) ? new URL(c.req.url) : null;
    if (url === null) return errorResponse(c, info.status, info.error, info.code);
    const state = (c.var ?? {}) as Record<string, unknown>;
    try {
      const html = renderDocument({
        page: Page,
        props: { ...info, url, state, data: undefined, params: {} },
        layouts,
        app,
        title: info.status === 404 ? "Not found" : `Error ${info.status}`,
        url,
        state,
        bootScript: options.bootScript ?? "/_islands/boot.js",
      });
      return c.html(html, info.status as ContentfulStatusCode);
    } catch (err) {
      options.logger?.error(`Cannot render the error page of ${c.req.path}: ${err}`);
      return errorResponse(c, info.status, info.error, info.code);
    }
  };
  return {
    onError: (err, c) => answer(c, describeError(err, c, options.logger)),
    notFound: (c) => answer(c, NOT_FOUND),
  };
}
