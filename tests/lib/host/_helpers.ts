/**
 * Test helpers of the plugin host: a fake clock, a host in a temp folder with keys of each
 * permission, a data folder with a stored config.yaml, a logger that keeps its lines, bounded
 * waiting and a WebSocket client.
 *
 * @module
 */
import { join } from "node:path";
import { ManualClock } from "../../_fake_clock.ts";
import { createHost, type Host, type HostOptions } from "../../../lib/host/mod.ts";
import type { Permission } from "../../../lib/host/plugin.ts";
import { createLogger, type LogLevel } from "../../../lib/log.ts";
import { hostWebApp } from "../../_web.ts";

/** The shared manual clock, starting at 2026-01-01 12:00 UTC. */
export class FakeClock extends ManualClock {
  constructor(start = Date.UTC(2026, 0, 1, 12)) {
    super(start);
  }
}

/** A host in a temp folder with one key per permission. */
export interface TestHost {
  host: Host;
  dir: string;
  keys: Record<"ADMIN" | Permission, string>;
  /** A request to the host's web app with the given key (or none). */
  request(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Creates and starts a host with the given plugins in a fresh temp folder; its requests go
 * through the web app as `deno task host` serves it (with `pages`, the host's and the plugins'
 * pages too; without, as `--no-ui`).
 */
export async function startTestHost(
  options: Partial<HostOptions> & { pages?: boolean } = {},
): Promise<TestHost> {
  const dir = await Deno.makeTempDir({ prefix: "lb_host_" });
  const { pages, ...hostOptions } = options;
  const host = createHost({ plugins: [], dataDir: dir, ...hostOptions });
  const app = hostWebApp(host, { pages: pages ?? false });
  const { adminKey } = await host.start();
  const keys = { ADMIN: adminKey! } as Record<Permission, string>;
  for (const p of ["STATUS", "CONTROL", "CONNECTION", "SETTINGS"] as const) {
    await host.users.addUser(p.toLowerCase(), `${p}-pass`, [p]);
    keys[p] = await host.users.createKey(p.toLowerCase());
  }
  return {
    host,
    dir,
    keys,
    request(path, init = {}) {
      const { key = keys.ADMIN, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null) headers.set("X-Api-Key", key);
      return Promise.resolve(app.request(path, { ...rest, headers }));
    },
    async close() {
      await host.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** JSON request init. */
export function json(method: string, body: unknown, headers: HeadersInit = {}): RequestInit {
  return {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

export { waitFor } from "../../_helpers.ts";

/** A WebSocket client collecting parsed messages. */
export interface WsClient {
  messages: Record<string, unknown>[];
  closed: Promise<CloseEvent>;
  send(data: unknown): void;
  close(): Promise<void>;
}

/** Opens a WebSocket (with optional headers) and waits until it is open. */
export async function openWs(url: string, headers?: Record<string, string>): Promise<WsClient> {
  const ws = headers ? new WebSocket(url, { headers } as unknown as string[]) : new WebSocket(url);
  const messages: Record<string, unknown>[] = [];
  const closed = new Promise<CloseEvent>((resolve) => ws.addEventListener("close", resolve));
  ws.addEventListener("message", (ev) => messages.push(JSON.parse(String(ev.data))));
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error("WebSocket failed to open")), {
      once: true,
    });
  });
  return {
    messages,
    closed,
    send: (data) => ws.send(JSON.stringify(data)),
    async close() {
      if (ws.readyState !== WebSocket.CLOSED) ws.close();
      await closed;
    },
  };
}

/** Runs `fn` with a data folder whose host/config.yaml is `yaml` (none for null), then removes it. */
export async function withConfig(yaml: string | null, fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "lb_startup_" });
  try {
    if (yaml !== null) {
      await Deno.mkdir(join(dir, "host"), { recursive: true });
      await Deno.writeTextFile(join(dir, "host", "config.yaml"), yaml);
    }
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A logger that keeps its lines. */
export function capture() {
  const lines: { level: LogLevel; line: string }[] = [];
  const logger = createLogger("test.host", { sink: (level, line) => lines.push({ level, line }) });
  return { lines, logger };
}
