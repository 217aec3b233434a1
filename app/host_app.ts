/**
 * The plugin host alone (`deno task host`): the one web app serving the host's APIs and, with
 * the UI, the host's and the plugins' pages of the manifest — no dashboard.
 *
 * @module
 */
import type { Hono } from "hono";
import type { Host } from "../lib/host/mod.ts";
import { assertIslandsBuilt, createWebServer } from "../lib/web/server.ts";
import { manifest } from "../manifest.gen.ts";
import { REPO_STATIC_DIR } from "./web_app.ts";

/** The web app serving `host` alone, answering to `allowedHosts`; `ui: false` is `--no-ui`. */
export function createHostApp(host: Host, allowedHosts: ReadonlySet<string>, ui = true): Hono {
  return createWebServer({
    manifest,
    staticDir: REPO_STATIC_DIR,
    allowedHosts,
    host,
    hostPages: ui,
    logger: host.logger,
  });
}

/** Checks that the island bundles of the pages are built (before the host is started). */
export function assertHostPagesBuilt(): Promise<void> {
  return assertIslandsBuilt(manifest, REPO_STATIC_DIR);
}
