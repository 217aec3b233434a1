/**
 * File routes, Fresh style: {@linkcode mountRoutes} registers the route files of the manifest's
 * mounted folders on a Hono app. A module's `handler` object answers its methods; its default
 * export is the page, rendered on the server (inside the layouts and the app shell) for a GET
 * without handler or when the handler answers `page(data)`. Every folder's `_middleware` runs
 * before the routes below it.
 *
 * @module
 */
import type { Context, Handler, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { islandsByName, registerIslands } from "./islands.ts";
import { renderDocument } from "./render.ts";
import { isRouteFile, patternOf, specificity } from "./segments.ts";
import { type PlacedRoute, type RouteFolder, RouteTree, TREE_ROOT } from "./tree.ts";
import {
  type AnyComponent,
  type HandlerResult,
  isPageResult,
  type Manifest,
  type Method,
  page,
  type PageResult,
  type RouteHandler,
} from "./types.ts";

/** Options of {@linkcode mountRoutes}. */
export interface MountOptions {
  /** The folders to serve; `routes/` is the tree's root. */
  folders: RouteFolder[];
  /** URL of the island boot script. @default "/_islands/boot.js" */
  bootScript?: string;
}

/** A registered route. */
export interface MountedRoute {
  pattern: string;
  file: string;
}

const METHODS: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** `app.on` with a list of handlers. */
interface Registrar {
  on(method: string, path: string, ...handlers: Handler[]): void;
}

/** Renders page results of one route for a request. */
export type PageRenderer = (c: Context, result: PageResult<unknown>) => Response;

/**
 * Registers every route of the mounted folders on `app`, most specific pattern first, and the
 * manifest's islands for the server's island markers. Returns the routes in order.
 */
export function mountRoutes(app: Hono, manifest: Manifest, options: MountOptions): MountedRoute[] {
  registerIslands(islandsByName(manifest.islands));
  const tree = new RouteTree(manifest, options.folders);
  const boot = options.bootScript ?? "/_islands/boot.js";
  const routes = tree.routes(isRouteFile)
    .map((r) => ({ ...r, pattern: patternOf(r.place.slice(TREE_ROOT.length + 1)) }))
    .sort((a, b) => specificity(b.pattern) - specificity(a.pattern));
  for (const route of routes) {
    const mws = tree.middlewares(route) as unknown as Handler[];
    const render = pageRenderer(tree, route, boot);
    const handlers = route.module.handler ?? {};
    const on = (method: Method, fn: RouteHandler<object>) =>
      (app as unknown as Registrar).on(method, route.pattern, ...mws, answer(fn, render));
    for (const method of METHODS) {
      const fn = handlers[method] as RouteHandler<object> | undefined;
      if (fn) on(method, fn);
    }
    if (route.module.default && !handlers.GET) on("GET", () => page(undefined));
  }
  return routes.map((r) => ({ pattern: r.pattern, file: r.file }));
}

/** Wraps a route handler: a Response goes out as it is, page data is rendered. */
function answer(fn: RouteHandler<object>, render: PageRenderer | null): Handler {
  return async (c) => {
    const result: HandlerResult = await fn(c as never);
    if (result instanceof Response) return result;
    if (isPageResult(result) && render) return render(c, result);
    throw new TypeError(`${c.req.method} ${c.req.path}: the handler answered no Response`);
  };
}

/** The renderer of a route's page, or null when the module has none. */
function pageRenderer(
  tree: RouteTree,
  route: PlacedRoute,
  bootScript: string,
): PageRenderer | null {
  const Page = route.module.default as AnyComponent | undefined;
  if (!Page) return null;
  const layouts = tree.layouts(route.place).map((m) => m.default as AnyComponent);
  const app = tree.special(TREE_ROOT, "_app")?.default as AnyComponent | undefined;
  return (c, result) => {
    const url = new URL(c.req.url);
    const state = c.var as object;
    const html = renderDocument({
      page: Page,
      props: { data: result.data, url, params: c.req.param() as Record<string, string>, state },
      layouts,
      app,
      title: result.title ?? route.module.meta?.title ?? "",
      url,
      state,
      bootScript,
    });
    return c.html(html, (result.status ?? 200) as ContentfulStatusCode, result.headers);
  };
}
