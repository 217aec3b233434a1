/**
 * The shared web layer: one error handler (AppError → status + `{"error": message}`), request
 * helpers, a rate limiter, static folders and the Fresh-shaped page/island glue (server
 * rendering with Preact, island bundles built by esbuild). Generic: nothing here knows about
 * plugins or the benchmark.
 *
 * @module
 */
export {
  type ErrorBody,
  errorHandler,
  type ErrorHandlerOptions,
  errorResponse,
  notFoundHandler,
} from "./error_handler.ts";
export { attachment, clientAddress, isStateChanging, readJsonObject } from "./request.ts";
export { type RateLimitOptions, SlidingWindowLimiter } from "./rate_limit.ts";
export { serveFolder, type ServeFolderOptions } from "./static.ts";
export { type PageOptions, renderPage } from "./page.ts";
export {
  buildIslands,
  type BuildIslandsOptions,
  island,
  type IslandEntry,
  type IslandMarker,
  ISLANDS_PREFIX,
} from "./islands.ts";
