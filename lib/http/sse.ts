/**
 * Server-sent events from a subscription, on Hono's `streamSSE()`: each item becomes `data:
 * <json>` and `id:`; a comment line is sent as a heartbeat so proxies and browsers keep the stream
 * open. A client that stops reading is dropped once `maxPending` writes wait for it: its stream
 * ends, the browser reconnects with `Last-Event-ID` and the hub's backlog replays what it missed,
 * so a stalled client never makes the server queue without bound.
 *
 * @module
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";

/** One event of a stream. */
export interface SseItem {
  id?: number | string;
  data: unknown;
}

/** Options of {@linkcode sseResponse}. */
export interface SseOptions {
  /** Heartbeat interval. @default 15_000 */
  heartbeatMs?: number;
  /** Reconnection delay sent to the browser. @default 2000 */
  retryMs?: number;
  /** Writes a client may leave unread before it is dropped (above the replay backlog). @default 4096 */
  maxPending?: number;
}

/**
 * A `text/event-stream` response fed by `subscribe`, which receives a `send` function and
 * returns the function that unsubscribes (called when the client goes away or is dropped).
 */
export function sseResponse(
  c: Context,
  subscribe: (send: (item: SseItem) => void) => () => void,
  options: SseOptions = {},
): Response {
  c.header("X-Accel-Buffering", "no");
  const res = streamSSE(c, async (stream) => {
    let pending = 0;
    const queue = (write: () => Promise<unknown>) => {
      if (stream.aborted) return;
      if (pending >= (options.maxPending ?? 4096)) return stream.abort();
      pending++;
      void write().finally(() => pending--);
    };
    const gone = new Promise<void>((resolve) => stream.onAbort(resolve));
    queue(() => stream.write(`retry: ${options.retryMs ?? 2000}\n\n`));
    const unsubscribe = subscribe((item) =>
      queue(() =>
        stream.writeSSE({
          data: JSON.stringify(item.data),
          ...(item.id === undefined ? {} : { id: String(item.id) }),
        })
      )
    );
    const beat = setInterval(
      () => queue(() => stream.write(": ping\n\n")),
      options.heartbeatMs ?? 15_000,
    );
    await gone;
    clearInterval(beat);
    unsubscribe();
  });
  res.headers.set("Content-Type", "text/event-stream; charset=utf-8");
  return res;
}
