/**
 * The web app around a plugin host under test: its pages (the route tree of the manifest, the
 * prebuilt islands) and its APIs, as `deno task host` serves them.
 *
 * @module
 */
import type { Hono } from "hono";
import { listenHostNames } from "../lib/http/host_allow.ts";
import { type Host, type ServedHost, serveHost } from "../lib/host/mod.ts";
import { createWebServer } from "../lib/web/server.ts";
import { manifest } from "../manifest.gen.ts";
import { REPO_STATIC_DIR } from "../app/mod.ts";
import { ensureIslandsBuilt } from "./_helpers.ts";

/** The web app serving `host` alone (no dashboard), on loopback. */
export function hostWebApp(host: Host): Hono {
  return createWebServer({
    manifest,
    staticDir: REPO_STATIC_DIR,
    allowedHosts: listenHostNames("127.0.0.1"),
    host,
  });
}

/** Starts `host` and serves it with its pages on a free loopback port. */
export async function serveHostPages(host: Host): Promise<ServedHost> {
  await ensureIslandsBuilt();
  const web = hostWebApp(host);
  return await serveHost(host, { port: 0, fetch: (req, info) => web.fetch(req, info) });
}
