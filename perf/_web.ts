/**
 * The dashboard as the benchmarks serve it: the web app of a data folder (no plugin host, quiet
 * logger, islands built once) on a free loopback port.
 *
 * @module
 */
import { join } from "node:path";
import { createLogger } from "../lib/log.ts";
import { ensureIslandsBuilt } from "../tests/_helpers.ts";
import { createWebApp, type WebApp } from "../app/mod.ts";

/** A served dashboard; dispose it with `await using`. */
export interface ServedWebApp {
  web: WebApp;
  /** `http://127.0.0.1:<port>` */
  base: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Serves the dashboard of `root` (data in `root/data`, configuration in `root/config`); `store`
 * names another results store (a `postgres://` URL).
 */
export async function serveWebApp(root: string, store?: string): Promise<ServedWebApp> {
  const vars: Record<string, string> = {
    HOME: root,
    LOCALBENCH_DATA_DIR: join(root, "data"),
    LOCALBENCH_CONFIG_DIR: join(root, "config"),
  };
  await ensureIslandsBuilt();
  const web = await createWebApp({
    env: (n) => vars[n],
    plugins: null,
    store,
    logger: createLogger("bench", { sink: () => {} }),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, web.fetch);
  return {
    web,
    base: `http://127.0.0.1:${server.addr.port}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await web.close();
    },
  };
}
