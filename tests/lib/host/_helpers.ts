/**
 * Test helpers of the plugin host: a fake clock, a host in a temp folder with keys of each
 * permission, bounded waiting and a WebSocket client.
 *
 * @module
 */
import type { Clock } from "../../../lib/clock.ts";
import { createHost, type Host, type HostOptions } from "../../../lib/host/mod.ts";
import type { Permission } from "../../../lib/host/plugin.ts";

/** A clock whose time moves only when told; timers fire on `advance`. */
export class FakeClock implements Clock {
  #now: number;
  #timers = new Map<number, { at: number; fn: () => void; every: number | null }>();
  #next = 1;

  constructor(start = Date.UTC(2026, 0, 1, 12)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): () => void {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + ms, fn, every: null });
    return () => this.#timers.delete(id);
  }

  setInterval(fn: () => void, ms: number): () => void {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + ms, fn, every: Math.max(1, ms) });
    return () => this.#timers.delete(id);
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const end = this.#now + ms;
    while (true) {
      let dueId = -1;
      let due: { at: number; fn: () => void; every: number | null } | undefined;
      for (const [id, t] of this.#timers) {
        if (t.at <= end && (!due || t.at < due.at)) [dueId, due] = [id, t];
      }
      if (!due) break;
      this.#now = due.at;
      if (due.every === null) this.#timers.delete(dueId);
      else due.at += due.every;
      due.fn();
    }
    this.#now = end;
  }

  /** Number of pending timers. */
  get pending(): number {
    return this.#timers.size;
  }
}

/** A host in a temp folder with one key per permission. */
export interface TestHost {
  host: Host;
  dir: string;
  keys: Record<"ADMIN" | Permission, string>;
  /** `app.request` with the given key (or none). */
  request(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/** Creates and starts a host with the given plugins in a fresh temp folder. */
export async function startTestHost(options: Partial<HostOptions> = {}): Promise<TestHost> {
  const dir = await Deno.makeTempDir({ prefix: "lb_host_" });
  const host = createHost({ plugins: [], dataDir: dir, ...options });
  const { adminKey } = await host.start();
  const keys = { ADMIN: adminKey! } as Record<Permission, string>;
  for (const p of ["STATUS", "CONTROL", "SETTINGS"] as const) {
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
      return Promise.resolve(host.app.request(path, { ...rest, headers }));
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

/** Polls `check` every 10 ms until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs = 5000,
): Promise<Exclude<T, false | null | undefined | 0 | "">> {
  const end = Date.now() + timeoutMs;
  while (true) {
    const v = await check();
    if (v) return v as Exclude<T, false | null | undefined | 0 | "">;
    if (Date.now() > end) throw new Error(`waitFor: timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

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
