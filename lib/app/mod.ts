/**
 * The composition of the web app (dashboard, services, plugin host) outside the entry script.
 *
 * @module
 */
export { createWebApp, REPO_STATIC_DIR, type WebApp, type WebAppOptions } from "./web_app.ts";
