/**
 * The web app around a plugin host under test, as `deno task host` serves it: its APIs and, with
 * `pages`, its pages (the route tree of the manifest, the prebuilt islands).
 *
 * @module
 */
import type { Hono } from "hono";
import { listenHostNames } from "../lib/http/host_allow.ts";
import { type Host, type ServedHost, serveHost } from "../lib/host/mod.ts";
import { createHostApp } from "../app/mod.ts";
import { ensureIslandsBuilt } from "./_helpers.ts";

/** The web app serving `host` alone (no dashboard), on loopback; `pages: false` is `--no-ui`. */
export function hostWebApp(host: Host, options: { pages?: boolean } = {}): Hono {
  return createHostApp(host, listenHostNames("127.0.0.1"), options.pages ?? true);
}

/** Starts `host` and serves its web app on a free loopback port (pages: the islands built). */
export async function serveHostApp(
  host: Host,
  options: { pages?: boolean } = {},
): Promise<ServedHost> {
  if (options.pages ?? true) await ensureIslandsBuilt();
  const web = hostWebApp(host, options);
  return await serveHost(host, { port: 0, fetch: (req, info) => web.fetch(req, info) });
}
