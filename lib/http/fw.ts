/**
 * The Fresh-shaped web glue: file routes from a static manifest, server rendering with island
 * markers, the esbuild island build, static files with cache headers, server-sent events and
 * the dashboard's guards (same-origin POSTs, token).
 *
 * @module
 */
export { hasIslands, ISLAND_TAG, islandNames, registerIslands } from "./fw_islands.ts";
export {
  isRouteFile,
  type Manifest,
  type Method,
  type MountOptions,
  mountRoutes,
  type PageProps,
  patternOf,
  type RouteModule,
} from "./fw_routes.ts";
export { type Document, type LayoutProps, renderDocument } from "./fw_render.ts";
export {
  BOOT_FILE,
  buildIslands,
  type BuildOptions,
  type BuildResult,
  hasBuild,
} from "./fw_build.ts";
export { type AssetOptions, cacheControlOf, serveAssets } from "./fw_static.ts";
export {
  assertUsableToken,
  isLoopback,
  isSameOrigin,
  randomToken,
  requireToken,
  sameOrigin,
  TOKEN_COOKIE,
  TOKEN_HEADER,
} from "./security.ts";
export { allowHosts, hostNameOf, listenHostNames, parseHostList } from "./host_allow.ts";
export { CONTENT_SECURITY_POLICY, securityHeaders } from "./headers.ts";
export { safeLocalPath } from "./redirect.ts";
export { formatSse, type SseItem, type SseOptions, sseResponse } from "./sse.ts";
