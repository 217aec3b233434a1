/**
 * The shared web layer: one error handler (AppError → status + `{"error", "code"}`), request
 * helpers and a rate limiter. The Fresh-shaped page/island glue (file routes, server rendering
 * with island markers, the esbuild island build, static files) is `./fw/mod.ts`. Generic: nothing
 * here knows about plugins or the benchmark.
 *
 * @module
 */
export {
  describeError,
  type ErrorBody,
  errorHandler,
  type ErrorHandlerOptions,
  errorResponse,
  notFoundHandler,
} from "./error_handler.ts";
export { compressAnswers } from "./compress.ts";
export { attachment, clientAddress, isStateChanging, readJsonObject } from "./request.ts";
export { type RateLimitOptions, SlidingWindowLimiter } from "./rate_limit.ts";
export {
  type AppProps,
  buildProject,
  createDefine,
  type Define,
  type ErrorPageProps,
  errorPages,
  type FwContext,
  hasBuild,
  islandComponent,
  ISLANDS_DIR,
  ISLANDS_URL,
  islandsByName,
  isManifestCurrent,
  type Manifest,
  MANIFEST_FILE,
  type Middleware,
  mountRoutes,
  page,
  type RouteFolder,
  serveAssets,
  watchProject,
} from "./fw/mod.ts";
export { allowHosts, listenHostNames, parseHostList } from "./host_allow.ts";
export { limitBody, MAX_REQUEST_BODY } from "./body.ts";
export { type MultipartOptions, type MultipartUpload, readMultipart } from "./multipart.ts";
export { securityHeaders } from "./headers.ts";
export {
  assertBrowserSameOrigin,
  assertJsonType,
  assertUsableToken,
  isJsonType,
  isSameOrigin,
  randomToken,
  requireToken,
  sameOrigin,
} from "./security.ts";
export {
  LAG_GRACE_MS,
  MAX_QUEUED_BYTES,
  type SseItem,
  type SseOptions,
  sseResponse,
} from "./sse.ts";
export { ConnectionSlots, type Slot, type SlotLimits } from "./slots.ts";
export {
  type LimitedServer,
  SERVE_LIMITS,
  type ServeLimits,
  serveWithLimits,
  type ServeWithLimitsOptions,
} from "./serve.ts";
export { snapshotResponse } from "./snapshot.ts";
export { safeLocalPath } from "./redirect.ts";
