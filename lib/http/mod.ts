/**
 * The shared web layer: one error handler (AppError → status + `{"error", "code"}`), request
 * helpers and a rate limiter. The Fresh-shaped page/island glue (file routes, server rendering
 * with island markers, the esbuild island build, static files) is `./fw/mod.ts`. Generic: nothing
 * here knows about plugins or the benchmark.
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
