/**
 * A dashboard for the browser tests: the web app on a free loopback port with a seeded store,
 * its runs going to the LM Studio double, and a page that records script errors and any request
 * leaving the server.
 *
 * @module
 */
import type { Browser, Page } from "playwright-core";
import { ensureIslandsBuilt, tempEnv } from "../_helpers.ts";
import { applyLook, expectAccessible, type Look, LOOKS, shotPath } from "./_axe.ts";
import { type RunningLmStudioDouble, startLmStudioDouble } from "../doubles/lmstudio_server.ts";
import { type SeedOptions, seedStore } from "../routes/_seed.ts";
import { createLogger } from "../../lib/log.ts";
import { createWebApp, type WebApp } from "../../app/mod.ts";
import type { FleetService } from "../../lib/fleet/mod.ts";

/** Options of {@linkcode startDashboard}. */
export interface DashboardOptions {
  /** Seed the store (false: leave it empty). @default {resultsPerVariant: 3} */
  seed?: SeedOptions | false;
  /** Benchmark arguments after the double's (`--backend rest --base-url URL`). @default [] */
  baseArgs?: string[];
  /** Delay between streamed tokens of the double. @default 25 */
  tokenDelayMs?: number;
  /** Whether runs go to the double (false: to a port nothing listens on). @default true */
  modelServer?: boolean;
  /** The user's `defaults.json` (a configuration layer). @default none */
  userDefaults?: Record<string, unknown>;
  /** The fleet of agents (closed with the dashboard). @default none */
  fleet?: FleetService;
}

/** A running dashboard. */
export interface Dashboard {
  base: string;
  web: WebApp;
  double: RunningLmStudioDouble | null;
  close(): Promise<void>;
}

/** A port nothing listens on (bound, then released). */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Starts the dashboard (no plugin host). */
export async function startDashboard(options: DashboardOptions = {}): Promise<Dashboard> {
  const env = await tempEnv();
  if (options.userDefaults) {
    await Deno.writeTextFile(
      `${env.configDir}/defaults.json`,
      JSON.stringify(options.userDefaults),
    );
  }
  const double = options.modelServer === false
    ? null
    : await startLmStudioDouble({ port: 0, tokenDelayMs: options.tokenDelayMs ?? 25 });
  await ensureIslandsBuilt();
  const url = double?.url ?? `http://127.0.0.1:${closedPort()}`;
  const web = await createWebApp({
    env: env.env,
    plugins: null,
    baseArgs: ["--backend", "rest", "--base-url", url, ...(options.baseArgs ?? [])],
    exit: () => {},
    logger: createLogger("test", { sink: () => {} }),
    fleet: options.fleet,
  });
  if (options.seed !== false) seedStore(web.store, options.seed ?? { resultsPerVariant: 3 });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, web.fetch);
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    web,
    double,
    async close() {
      await web.close();
      await server.shutdown();
      await double?.close();
      await env[Symbol.asyncDispose]();
    },
  };
}

/** What a page did that a test should fail on. */
export interface PageWatch {
  /** Script errors and console errors. */
  errors: string[];
  /** Requests to anything but the dashboard. */
  external: string[];
}

/** Opens a page in `browser` that records errors and outside requests. */
export async function watchedPage(
  browser: Browser,
  base: string,
): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  const watch: PageWatch = { errors: [], external: [] };
  page.on("pageerror", (e) => watch.errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && watch.errors.push(m.text()));
  page.on("request", (r) => !r.url().startsWith(base) && watch.external.push(r.url()));
  return { page, watch };
}

/** Goes to `path` and waits until its islands, if it has any, are hydrated. */
export async function openPage(page: Page, base: string, path: string): Promise<void> {
  await page.goto(`${base}${path}`);
  if (await page.locator("x-island").count() === 0) return;
  await page.waitForSelector('html[data-hydrated="true"]', { timeout: 10_000 });
}

/**
 * Checks the page as it is now with axe in every look (desktop and mobile, light and dark) and
 * photographs each (`test-artifacts/<name>_<look>.png`); the page is left in `after`.
 */
export async function checkEveryLook(page: Page, name: string, after: Look): Promise<void> {
  for (const look of LOOKS) {
    await applyLook(page, look);
    await expectAccessible(page, `${name} ${look.name}`);
    await page.screenshot({ path: shotPath(name, look), fullPage: false });
  }
  await applyLook(page, after);
}
