/**
 * `test_connection`: a one-shot connection to a hub, independent of the running client. It first
 * opens a plain TCP connection (to tell a refused port from an unreachable host), then the
 * WebSocket, and waits for the first frame, which must be the hub's JSON snapshot with channel
 * lists. Results are plain: `ok`, `timeout`, `refused` or `unreachable`, with a sentence that
 * never carries the runtime's own error text.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import { countChannels, mergeReadings, parseFrame } from "./protocol.ts";
import { hubUrl } from "./settings.ts";
import { waitForClose } from "./socket.ts";

/** Result of {@linkcode probeHub}. */
export type ProbeResult =
  | { ok: true; channels: number }
  | { ok: false; reason: "timeout" | "unreachable" | "refused"; detail: string };

/** Options of {@linkcode probeHub}. */
export interface ProbeOptions {
  clock: Clock;
  /** Time allowed for connecting and receiving the snapshot. @default 5000 */
  timeoutMs?: number;
}

/** Where a hub listens. */
export interface HubTarget {
  host: string;
  port: number;
  path: string;
}

function failure(
  reason: "timeout" | "unreachable" | "refused",
  url: string,
  why: string,
): ProbeResult {
  const lead = reason === "timeout" ? "No answer from" : "Cannot reach";
  return { ok: false, reason, detail: `${lead} the hub at ${url}: ${why}` };
}

/** Classifies a failed TCP connect without repeating the runtime's message. */
function connectFailure(err: unknown, url: string): ProbeResult {
  if (err instanceof Deno.errors.ConnectionRefused) {
    return failure("refused", url, "nothing listens on that port");
  }
  if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
    return failure("unreachable", url, "this process may not connect there");
  }
  if (err instanceof Deno.errors.TimedOut) {
    return failure("timeout", url, "the connection timed out");
  }
  const text = String(err);
  if (/resolve|lookup|name|dns/i.test(text)) {
    return failure("unreachable", url, "the host name does not resolve");
  }
  return failure("unreachable", url, "no route to the host");
}

/** Opens and closes a TCP connection to the target, within the deadline. */
async function tcpCheck(
  target: HubTarget,
  url: string,
  clock: Clock,
  timeoutMs: number,
): Promise<ProbeResult | null> {
  const hostname = target.host.replace(/^\[|\]$/g, "");
  let cancel = () => {};
  const timeout = new Promise<ProbeResult>((resolve) => {
    cancel = clock.setTimeout(
      () => resolve(failure("timeout", url, `no connection within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  const connect = Deno.connect({ hostname, port: target.port }).then(
    (conn) => {
      conn.close();
      return null;
    },
    (err) => connectFailure(err, url),
  );
  try {
    return await Promise.race([connect, timeout]);
  } finally {
    cancel();
  }
}

/** Connects once to the hub, reads the snapshot and closes again. */
export async function probeHub(target: HubTarget, options: ProbeOptions): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const url = hubUrl(target.host, target.port, target.path);
  const tcp = await tcpCheck(target, url, options.clock, timeoutMs);
  if (tcp) return tcp;
  let ws: WebSocket;
  try {
    ws = new WebSocket(url);
  } catch {
    return failure("unreachable", url, "the address is not a valid WebSocket URL");
  }
  return await new Promise((resolve) => {
    let result: ProbeResult | undefined;
    const finish = (value: ProbeResult) => {
      if (result) return;
      result = value;
      cancelTimeout();
      waitForClose(ws).then(() => resolve(value));
    };
    const cancelTimeout = options.clock.setTimeout(() => {
      finish(failure("timeout", url, `no channel snapshot within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    ws.onmessage = (event) => {
      const readings = typeof event.data === "string" ? parseFrame(event.data) : undefined;
      if (!readings) {
        return finish(failure("unreachable", url, "its first frame is not a channel snapshot"));
      }
      finish({ ok: true, channels: countChannels(mergeReadings({}, readings).merged) });
    };
    ws.onerror = () => {
      finish(failure("unreachable", url, "the WebSocket handshake failed (is it a hub?)"));
    };
    ws.onclose = () =>
      finish(failure("unreachable", url, "the connection closed before a snapshot arrived"));
  });
}
