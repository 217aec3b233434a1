/**
 * Server-sent events from a subscription, on Hono's `streamSSE()`: each item becomes `data:
 * <json>` and `id:`; a comment line every 15 s keeps proxies and browsers from closing the stream.
 * A client that stops reading is dropped once {@linkcode MAX_PENDING} writes wait for it: its
 * stream ends, the browser reconnects with `Last-Event-ID` and the hub's backlog replays what it
 * missed, so a stalled client never makes the server queue without bound.
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

/** Writes a client may leave unread before it is dropped (above the hub's replay of 1000). */
export const MAX_PENDING = 4096;

/**
 * A `text/event-stream` response fed by `subscribe`, which receives a `send` function and
 * returns the function that unsubscribes (called when the client goes away or is dropped).
 */
export function sseResponse(
  c: Context,
  subscribe: (send: (item: SseItem) => void) => () => void,
): Response {
  c.header("X-Accel-Buffering", "no");
  const res = streamSSE(c, async (stream) => {
    let pending = 0;
    const queue = (write: () => Promise<unknown>) => {
      if (stream.aborted) return;
      if (pending >= MAX_PENDING) return stream.abort();
      pending++;
      void write().finally(() => pending--);
    };
    const gone = new Promise<void>((resolve) => stream.onAbort(resolve));
    queue(() => stream.write("retry: 2000\n\n"));
    const unsubscribe = subscribe(({ id, data }) =>
      queue(() => stream.writeSSE({ data: JSON.stringify(data), id: id?.toString() }))
    );
    const beat = setInterval(() => queue(() => stream.write(": ping\n\n")), 15_000);
    await gone;
    clearInterval(beat);
    unsubscribe();
  });
  res.headers.set("Content-Type", "text/event-stream; charset=utf-8");
  return res;
}
