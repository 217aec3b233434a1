/**
 * A fake dashboard for the tray's tests: the seed's status and control endpoints on
 * 127.0.0.1:<free port>, with the real dashboard's rules (409 for a disallowed transition,
 * cross-origin POSTs refused, bearer token when configured) and a record of every request.
 *
 * @module
 */
import type { BenchStatus } from "../../../lib/tray/mod.ts";

/** One request the fake received. */
export interface SeenRequest {
  method: string;
  path: string;
  origin: string | null;
  authorization: string | null;
  body: string;
}

/** A running fake dashboard. */
export interface FakeDashboard {
  url: string;
  status: BenchStatus;
  requests: SeenRequest[];
  /** Settles when `/api/system/shutdown` was answered. */
  shutdown: Promise<void>;
  /** Settles when the server has stopped. */
  finished: Promise<void>;
  close(): Promise<void>;
}

const NEXT: Record<string, Partial<Record<BenchStatus, BenchStatus>>> = {
  "/api/benchmark/start": { idle: "running" },
  "/api/benchmark/pause": { running: "paused" },
  "/api/benchmark/resume": { paused: "running" },
  "/api/benchmark/stop": { running: "idle", paused: "idle" },
};

/** Starts the fake; `token` makes POSTs require `Authorization: Bearer <token>`. */
export function startFakeDashboard(
  options: { token?: string; status?: BenchStatus; shutdownDelayMs?: number; port?: number } = {},
): FakeDashboard {
  let markShutdown = () => {};
  const shutdown = new Promise<void>((r) => (markShutdown = r));
  const json = (status: number, body: unknown) => Response.json(body, { status });
  const fake = {
    status: options.status ?? "idle",
    requests: [] as SeenRequest[],
    shutdown,
  } as FakeDashboard;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    async (req) => {
      const { pathname, origin } = new URL(req.url);
      fake.requests.push({
        method: req.method,
        path: pathname,
        origin: req.headers.get("origin"),
        authorization: req.headers.get("authorization"),
        body: await req.text(),
      });
      if (req.method === "GET" && pathname === "/api/status") {
        return json(200, { status: fake.status, running: fake.status !== "idle" });
      }
      if (req.method !== "POST") return json(404, { error: "not found" });
      const sent = req.headers.get("origin");
      if (sent !== null && sent !== origin) return json(403, { error: "cross-origin" });
      if (options.token && req.headers.get("authorization") !== `Bearer ${options.token}`) {
        return json(401, { error: "unauthorized" });
      }
      if (pathname === "/api/system/shutdown") {
        fake.status = "idle";
        markShutdown();
        setTimeout(() => void server.shutdown(), options.shutdownDelayMs ?? 100);
        return json(200, { success: true });
      }
      const next = NEXT[pathname]?.[fake.status];
      if (!NEXT[pathname]) return json(404, { error: "not found" });
      if (!next) return json(409, { error: `not allowed while ${fake.status}` });
      fake.status = next;
      return json(200, { status: next });
    },
  );
  fake.url = `http://127.0.0.1:${server.addr.port}`;
  fake.finished = server.finished;
  fake.close = async () => {
    await server.shutdown().catch(() => {});
    await server.finished;
  };
  return fake;
}
