/**
 * The composition root: the web app built from `lib/`, the plugins of `plugins/registry.ts` and
 * the route manifest — the dashboard with the plugin host (`deno task webapp`). The entry script
 * parses its arguments and serves it; tests, tools and benchmarks build it from here. Nothing in
 * `lib/` imports this folder.
 *
 * @module
 */
export { createWebApp, REPO_STATIC_DIR, type WebApp, type WebAppOptions } from "./web_app.ts";
