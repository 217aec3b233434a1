/**
 * The types of the Fresh-shaped web layer: the generated manifest, route modules, the props of
 * pages, layouts and the app shell, middlewares and handlers. A route handler receives Hono's
 * `Context`, whose variables (`c.var`) are the request's state (Fresh's `ctx.state`).
 *
 * @module
 */
// deno-lint-ignore-file no-explicit-any
import type { Context, MiddlewareHandler } from "hono";
import type { ComponentChildren, ComponentType, VNode } from "preact";

/** Methods a route module may handle. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The Hono environment of a route whose state (`c.var`) is `S`. */
export type FwEnv<S extends object> = { Variables: S };

/** The context a handler or middleware receives. */
export type FwContext<S extends object> = Context<FwEnv<S>, any>;

/** A middleware (`_middleware.ts` exports one, or an array of them, as `default`). */
export type Middleware<S extends object> = MiddlewareHandler<FwEnv<S>, any>;

/** What a page handler answers: a response as it is, or the data of the page to render. */
export type HandlerResult<D = unknown> = Response | PageResult<D>;

/** A method handler. */
export type RouteHandler<S extends object, D = unknown> = (
  c: FwContext<S>,
) => HandlerResult<D> | Promise<HandlerResult<D>>;

/** The `handler` object of a route module: one function per method. */
export type Handlers<S extends object> = Partial<Record<Method, RouteHandler<S, any>>>;

const PAGE = Symbol("page");

/** The data a page renders with (see {@linkcode page}). */
export interface PageResult<D> {
  readonly [PAGE]: true;
  data: D;
  /** Status of the rendered page. @default 200 */
  status?: number;
  /** Document title (overrides the module's `meta.title`). */
  title?: string;
  headers?: Record<string, string>;
}

/**
 * Tells the framework to render the route's page with `data` (Fresh's `page()`).
 *
 * @example
 * ```ts
 * import { isPageResult, page } from "./types.ts";
 * const result = page({ n: 1 }, { title: "One" });
 * if (!isPageResult(result) || result.title !== "One") throw new Error("not a page result");
 * ```
 */
export function page<D>(
  data: D,
  init: { status?: number; title?: string; headers?: Record<string, string> } = {},
): PageResult<D> {
  return { [PAGE]: true, data, ...init };
}

/** Whether a handler's answer is a {@linkcode PageResult}. */
export function isPageResult(value: unknown): value is PageResult<unknown> {
  return typeof value === "object" && value !== null && PAGE in value;
}

/** The data type a `handler` object's GET renders (`unknown` without one). */
export type DataOf<H> = H extends { GET: (...args: never[]) => infer R }
  ? Awaited<R> extends PageResult<infer D> ? D : never
  : H extends object ? undefined
  : unknown;

/** Props of a page (the default export of a route file). */
export interface PageProps<D = unknown, S extends object = Record<string, unknown>> {
  /** What the GET handler passed to `page()` (undefined without a handler). */
  data: D;
  url: URL;
  /** Path parameters (`[id]` → `params.id`). */
  params: Record<string, string>;
  /** The request's state (`c.var`). */
  state: S;
}

/** Props of a layout (`_layout.tsx`): the page props and the inner content to render. */
export interface LayoutProps<S extends object = Record<string, unknown>>
  extends PageProps<unknown, S> {
  /** The wrapped content (the page, or the next layout). */
  Component: () => VNode | null;
}

/** Props of the document shell (`routes/_app.tsx`). */
export interface AppProps<S extends object = Record<string, unknown>> {
  /** The document title. */
  title: string;
  url: URL;
  state: S;
  /** The page inside its layouts. */
  Component: () => VNode | null;
}

/** Props of an error page (`_404.tsx`, `_500.tsx`). */
export interface ErrorPageProps {
  status: number;
  /** The message the JSON body would carry (`{"error"}`): safe to show. */
  error: string;
  code: string;
  url: URL;
  state: Record<string, unknown>;
}

/** Options a route file may export as `config`. */
export interface RouteConfig {
  /** A layout that stands alone: the layouts of the folders above it are left out. */
  skipInheritedLayouts?: boolean;
}

/** A route module as the manifest holds it. */
export interface RouteModule {
  /**
   * The page component (route files); the component of `_app`, `_layout`, `_404` and `_500`;
   * the middleware (or an array of them) of `_middleware`.
   */
  default?: ComponentType<any> | Middleware<any> | Middleware<any>[];
  /** Method handlers; `GET` may answer `page(data)` to render the default export. */
  handler?: Handlers<any>;
  /** Static page metadata. */
  meta?: { title?: string };
  config?: RouteConfig;
}

/** An island module: its default export is the component hydrated in the browser. */
export interface IslandModule {
  default: ComponentType<any>;
}

/** The generated manifest (`manifest.gen.ts`): every route and island file, by path. */
export interface Manifest {
  /** Route files by path from the project root (`routes/api/status.ts`). */
  routes: Record<string, RouteModule>;
  /** Island files by path from the project root (`islands/Chart.tsx`). */
  islands: Record<string, IslandModule>;
}

/** Children of a layout-like component. */
export type Children = ComponentChildren;

/** A middleware whatever its state (as the manifest and the mounted folders hold them). */
export type AnyMiddleware = Middleware<any>;

/** A component whatever its props (pages, layouts and islands as the manifest holds them). */
export type AnyComponent = ComponentType<any>;
