/**
 * File routes, Fresh style: a manifest maps route files (`routes/index.tsx`,
 * `routes/api/status.ts`, `routes/api/comparison/[...name].ts`) to their modules, and
 * {@linkcode mountRoutes} registers them on a Hono app. A module with a default export is a page
 * rendered on the server; a `handler` object registers its methods (GET, POST, DELETE...).
 * The manifest is imported statically, so the app can be bundled.
 *
 * @module
 */
import type { Context, Env, Handler, Hono } from "hono";
import type { ComponentType } from "preact";
import { registerIslands } from "./fw_islands.ts";
import { type Document, renderDocument } from "./fw_render.ts";

/** Methods a route module may handle. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Props of a page component. */
export interface PageProps<D = unknown> {
  /** What the page's `data` function returned. */
  data: D;
  /** The request URL. */
  url: URL;
}

/** A route module as the manifest holds it. */
export interface RouteModule<E extends Env = Env> {
  /** A page: rendered on the server inside the layout. */
  default?: ComponentType<PageProps<never>>;
  /** Loads the page's data (may throw an AppError for a status page). */
  data?: (c: Context<E>) => unknown;
  /** Page metadata. */
  meta?: { title?: string };
  /** Method handlers. */
  handler?: Partial<Record<Method, Handler<E>>>;
}

/** The application's routes: relative file path (`./routes/...`) → module. */
export interface Manifest<E extends Env = Env> {
  routes: Record<string, RouteModule<E>>;
  /** Island components by name (`./islands/Chart.tsx` → `Chart`). */
  islands?: Record<string, unknown>;
}

/** Options of {@linkcode mountRoutes}. */
export interface MountOptions {
  /** The layout wrapping every page (`routes/_app.tsx`). */
  layout: Document["layout"];
  /** URL of the island boot script. @default "/_islands/boot.js" */
  bootScript?: string;
  /** Stylesheets linked from every page. @default [] */
  styles?: string[];
}

/**
 * The URL pattern of a route file: `index` → `/`, `[id]` → `:id`, `[...rest]` → `:rest{.+}`.
 *
 * @example
 * ```ts
 * import { patternOf } from "./fw_routes.ts";
 * console.assert(patternOf("./routes/api/comparison/[...name].ts") === "/api/comparison/:name{.+}");
 * ```
 */
export function patternOf(file: string): string {
  const rel = file.replace(/^\.?\/?routes\//, "").replace(/\.(tsx?|jsx?)$/, "");
  const parts = rel.split("/").filter((p) => p !== "index").map((p) => {
    const rest = /^\[\.\.\.(\w+)\]$/.exec(p);
    if (rest) return `:${rest[1]}{.+}`;
    const param = /^\[(\w+)\]$/.exec(p);
    return param ? `:${param[1]}` : p;
  });
  return "/" + parts.join("/");
}

/** Whether a file is a route (files and folders starting with `_` are not). */
export function isRouteFile(file: string): boolean {
  return !file.replace(/^\.?\/?routes\//, "").split("/").some((p) => p.startsWith("_"));
}

/** Orders patterns so that static segments win over parameters and catch-alls. */
function specificity(pattern: string): number {
  return pattern.split("/").reduce(
    (n, seg) => n * 3 + (seg.includes("{.+}") ? 0 : seg.startsWith(":") ? 1 : 2),
    1,
  );
}

/** Registers every route of the manifest on `app`. Returns the patterns, in order. */
export function mountRoutes<E extends Env>(
  app: Hono<E>,
  manifest: Manifest<E>,
  options: MountOptions,
): string[] {
  registerIslands(manifest.islands as Parameters<typeof registerIslands>[0] ?? {});
  const entries = Object.entries(manifest.routes)
    .filter(([file]) => isRouteFile(file))
    .map(([file, mod]) => ({ pattern: patternOf(file), mod }))
    .sort((a, b) => specificity(b.pattern) - specificity(a.pattern));
  for (const { pattern, mod } of entries) {
    for (const [method, fn] of Object.entries(mod.handler ?? {})) {
      if (fn) app.on(method, pattern, fn);
    }
    const Page = mod.default;
    if (Page && !mod.handler?.GET) {
      app.get(pattern, async (c) => {
        const data = mod.data ? await mod.data(c) : undefined;
        const html = renderDocument({
          page: Page as unknown as Document["page"],
          props: { data, url: new URL(c.req.url) },
          title: mod.meta?.title ?? "",
          layout: options.layout,
          bootScript: options.bootScript ?? "/_islands/boot.js",
          styles: options.styles ?? [],
          path: new URL(c.req.url).pathname,
        });
        return c.html(html);
      });
    }
  }
  return entries.map((e) => e.pattern);
}
