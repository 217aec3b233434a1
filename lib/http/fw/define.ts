/**
 * `createDefine`, as in Fresh: an area of the site states the type of its request state once
 * (`export const define = createDefine<DashboardState>()`), and every handler, page, layout and
 * middleware defined through it gets its context typed without repeating it.
 *
 * @module
 */
import type { FunctionComponent } from "preact";
import type {
  DataOf,
  Handlers,
  LayoutProps,
  Middleware,
  PageProps,
  RouteHandler,
} from "./types.ts";

/** The typed helpers of one state type (see {@linkcode createDefine}). */
export interface Define<S extends object> {
  /** A route's `handler` object; a GET may answer `page(data)` for the page. */
  handlers<H extends Handlers<S>>(handlers: H): H;
  /** A single handler. */
  handler<D>(fn: RouteHandler<S, D>): RouteHandler<S, D>;
  /** A page; `define.page<typeof handler>(...)` types `props.data` from the GET handler. */
  page<H = undefined>(component: FunctionComponent<PageProps<DataOf<H>, S>>): FunctionComponent<
    PageProps<DataOf<H>, S>
  >;
  /** A layout (`_layout.tsx`). */
  layout(component: FunctionComponent<LayoutProps<S>>): FunctionComponent<LayoutProps<S>>;
  /** A middleware (`_middleware.ts`). */
  middleware(fn: Middleware<S>): Middleware<S>;
}

/**
 * The helpers of a state type: identity functions that only carry the types.
 *
 * @example
 * ```ts
 * import { h } from "preact";
 * import { createDefine } from "./define.ts";
 * import { page } from "./types.ts";
 * const define = createDefine<{ greeting: string }>();
 * export const handler = define.handlers({
 *   GET: (c) => page({ text: c.var.greeting }),
 * });
 * export default define.page<typeof handler>(({ data }) => h("p", null, data.text));
 * ```
 */
export function createDefine<S extends object>(): Define<S> {
  return {
    handlers: (handlers) => handlers,
    handler: (fn) => fn,
    page: (component) => component,
    layout: (component) => component,
    middleware: (fn) => fn,
  };
}
