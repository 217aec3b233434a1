/**
 * The Fresh-shaped web framework on Hono + Preact: a generated manifest of route and island
 * files (`deno task build`), file routes with per-folder `_layout` and `_middleware`, the
 * `_app`, `_404` and `_500` files found by name, a typed `createDefine`, server rendering with
 * island markers, prebuilt island bundles and static files with cache headers.
 *
 * The build itself (`./build.ts`, `./crawl.ts`, `./dev.ts`) is not exported here: servers never
 * load esbuild.
 *
 * @module
 */
export type {
  AppProps,
  DataOf,
  ErrorPageProps,
  FwContext,
  FwEnv,
  HandlerResult,
  Handlers,
  IslandModule,
  LayoutProps,
  Manifest,
  Method,
  Middleware,
  PageProps,
  PageResult,
  RouteConfig,
  RouteHandler,
  RouteModule,
} from "./types.ts";
export { isPageResult, page } from "./types.ts";
export { createDefine, type Define } from "./define.ts";
export { type MountedRoute, type MountOptions, mountRoutes } from "./mount.ts";
export { type RouteFolder, TREE_ROOT } from "./tree.ts";
export { isRouteFile, patternOf, SPECIAL_FILES } from "./segments.ts";
export { errorPages, type ErrorPagesOptions, wantsHtml } from "./error_pages.ts";
export { type Document, renderDocument } from "./render.ts";
export {
  hasIslands,
  ISLAND_TAG,
  islandComponent,
  islandNames,
  islandsByName,
  registerIslands,
} from "./islands.ts";
export { type AssetOptions, cacheControlOf, serveAssets } from "./static.ts";
export { hasBuild, ISLANDS_DIR, ISLANDS_URL } from "./bundles.ts";
export { watchProject } from "./dev.ts";
export { buildProject } from "./build.ts";
export { isManifestCurrent, MANIFEST_FILE } from "./crawl.ts";
