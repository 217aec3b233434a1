/**
 * `test_connection`: a one-shot connection to a hub, independent of the running client. It waits
 * for the first frame, which must be the hub's JSON snapshot with channel lists.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import { messageOf } from "../../lib/error.ts";
import { countChannels, mergeReadings, parseFrame } from "./protocol.ts";
import { waitForClose } from "./socket.ts";

/** Result of {@linkcode probeHub}. */
export type ProbeResult =
  | { ok: true; channels: number }
  | { ok: false; reason: "timeout" | "unreachable"; detail: string };

/** Options of {@linkcode probeHub}. */
export interface ProbeOptions {
  clock: Clock;
  /** Time allowed for connecting and receiving the snapshot. @default 5000 */
  timeoutMs?: number;
}

/** Connects once to `url`, reads the snapshot and closes again. */
export function probeHub(url: string, options: ProbeOptions): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 5000;
  let ws: WebSocket;
  try {
    ws = new WebSocket(url);
  } catch (err) {
    return Promise.resolve(unreachable(url, messageOf(err)));
  }
  return new Promise((resolve) => {
    let result: ProbeResult | undefined;
    const finish = (value: ProbeResult) => {
      if (result) return;
      result = value;
      cancelTimeout();
      waitForClose(ws).then(() => resolve(value));
    };
    const cancelTimeout = options.clock.setTimeout(() => {
      finish({
        ok: false,
        reason: "timeout",
        detail: `The hub at ${url} sent no channel snapshot within ${timeoutMs / 1000} s`,
      });
    }, timeoutMs);
    ws.onmessage = (event) => {
      const readings = typeof event.data === "string" ? parseFrame(event.data) : undefined;
      if (!readings) return finish(unreachable(url, "its first frame is not a channel snapshot"));
      finish({ ok: true, channels: countChannels(mergeReadings({}, readings).merged) });
    };
    ws.onerror = (event) => {
      finish(unreachable(url, event instanceof ErrorEvent ? event.message : "socket error"));
    };
    ws.onclose = () => finish(unreachable(url, "the connection closed before a snapshot arrived"));
  });
}

function unreachable(url: string, why: string): ProbeResult {
  return { ok: false, reason: "unreachable", detail: `Cannot reach the hub at ${url}: ${why}` };
}
