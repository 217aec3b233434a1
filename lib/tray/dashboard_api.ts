/**
 * The dashboard's HTTP interface as the tray uses it: `GET /api/status` and the control POSTs.
 * Every URL is built on the configured dashboard's origin, so requests never leave it. POSTs carry
 * no `Origin` header (the dashboard accepts none or its own) and, when a token is set,
 * `Authorization: Bearer <token>` (sent on the status request too).
 *
 * @module
 */
import { messageOf, UnreachableError, UpstreamError } from "../error.ts";
import type { Clock } from "../clock.ts";
import { systemClock } from "../clock.ts";
import { stateOfBody, type TrayState } from "./status.ts";

/** Control endpoints under `/api/`. */
export type ControlPath =
  | "benchmark/start"
  | "benchmark/pause"
  | "benchmark/resume"
  | "benchmark/stop"
  | "system/shutdown";

/** The tray's view of the dashboard. */
export interface DashboardClient {
  /** The dashboard's benchmark status, or `error` when it cannot be read. Never throws. */
  status(): Promise<TrayState>;
  /** POSTs `{}` to `/api/<path>`; throws an {@linkcode AppError} on a network error or non-2xx. */
  control(path: ControlPath): Promise<void>;
}

/** Options of {@linkcode createDashboardClient}. */
export interface DashboardClientOptions {
  /** Bearer token for the dashboard. @default undefined (none sent) */
  token?: string;
  /** fetch implementation. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Clock for the request timeout. @default systemClock */
  clock?: Clock;
  /** Milliseconds before a request is abandoned. @default 2500 */
  timeoutMs?: number;
}

/** Creates a client for the dashboard at `url` (only its origin is used). */
export function createDashboardClient(
  url: string,
  options: DashboardClientOptions = {},
): DashboardClient {
  const origin = new URL(url).origin;
  const doFetch = options.fetch ?? globalThis.fetch;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 2500;
  const headers = (json: boolean): Record<string, string> => ({
    Accept: "application/json",
    ...(json ? { "Content-Type": "application/json" } : {}),
    ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
  });
  const request = async (path: string, init: RequestInit): Promise<Response> => {
    const abort = new AbortController();
    const cancel = clock.setTimeout(() => abort.abort(new Error("timed out")), timeoutMs);
    try {
      return await doFetch(new URL(path, origin), { ...init, signal: abort.signal });
    } finally {
      cancel();
    }
  };
  return {
    async status() {
      try {
        const res = await request("/api/status", { headers: headers(false) });
        if (!res.ok) {
          await res.body?.cancel();
          return "error";
        }
        return stateOfBody(await res.json());
      } catch {
        return "error";
      }
    },
    async control(path) {
      let res: Response;
      try {
        res = await request(`/api/${path}`, { method: "POST", headers: headers(true), body: "{}" });
      } catch (err) {
        throw new UnreachableError(`Cannot POST /api/${path}: ${messageOf(err)}`);
      }
      const text = await res.text();
      if (!res.ok) {
        throw new UpstreamError(`Cannot POST /api/${path}: ${res.status} ${text.slice(0, 200)}`, {
          upstreamStatus: res.status,
        });
      }
    },
  };
}
