/**
 * The composition root: the web apps built from `lib/`, the plugins of `plugins/registry.ts` and
 * the route manifest — the dashboard with the plugin host (`deno task webapp`), and the host
 * alone (`deno task host`). The entry scripts parse their arguments and serve them; tests, tools
 * and benchmarks build them from here. Nothing in `lib/` imports this folder.
 *
 * @module
 */
export { assertHostPagesBuilt, createHostApp } from "./host_app.ts";
export { createWebApp, REPO_STATIC_DIR, type WebApp, type WebAppOptions } from "./web_app.ts";
