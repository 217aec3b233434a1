/**
 * A dashboard under test: a temporary environment, the web app (the islands built first when
 * missing, no plugin host unless asked) and a request helper that sends same-origin headers.
 *
 * @module
 */
import { ensureIslandsBuilt, type TempEnv, tempEnv } from "../_helpers.ts";
import { createLogger } from "../../lib/log.ts";
import { createWebApp, type WebApp, type WebAppOptions } from "../../app/mod.ts";

/** A test dashboard; dispose with `await using`. */
export interface TestDashboard {
  env: TempEnv;
  web: WebApp;
  exits: number;
  /** Calls the app without a socket; POSTs carry `Origin: http://localhost`. */
  request(path: string, init?: RequestInit): Promise<Response>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Creates the dashboard. */
export async function testDashboard(options: WebAppOptions = {}): Promise<TestDashboard> {
  await ensureIslandsBuilt();
  const env = await tempEnv();
  const state = { exits: 0 };
  const web = await createWebApp({
    env: env.env,
    plugins: null,
    shutdownDelayMs: 1,
    exit: () => state.exits++,
    logger: createLogger("test", { sink: () => {} }),
    ...options,
  });
  return {
    env,
    web,
    get exits() {
      return state.exits;
    },
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.method && init.method !== "GET" && !headers.has("Origin")) {
        headers.set("Origin", "http://localhost");
      }
      return Promise.resolve(
        web.fetch(new Request(`http://localhost${path}`, { ...init, headers })),
      );
    },
    async [Symbol.asyncDispose]() {
      await web.close();
      await env[Symbol.asyncDispose]();
    },
  };
}

/** POSTs JSON. */
export function post(d: TestDashboard, path: string, body?: unknown): Promise<Response> {
  return d.request(path, {
    method: "POST",
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}
