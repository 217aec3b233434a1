/**
 * Server-sent events from a subscription, on Hono's `streamSSE()`: each item becomes `data:
 * <json>` and `id:`; a comment line every 15 s keeps proxies and browsers from closing the stream.
 *
 * The send queue is bounded in bytes: once more than {@linkcode MAX_QUEUED_BYTES} wait for a
 * client, it is told it lagged (one last event `{"type": "lagged", "unsent_bytes": n}`, without
 * an id), unsubscribed, and its stream ends once that is read; a client that reads nothing within
 * {@linkcode LAG_GRACE_MS} more is dropped with what was queued for it. The browser reconnects
 * with `Last-Event-ID` and the hub's backlog replays what it missed. With `slots`, streams are
 * capped per `key` (account or address) and overall: one more answers 429. A stream holds its
 * slot until its connection is gone, so a client that never reads keeps counting (with nothing
 * more queued for it than the socket's own buffers).
 *
 * @module
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { RateLimitedError } from "../error.ts";
import type { ConnectionSlots } from "./slots.ts";

/** One event of a stream. */
export interface SseItem {
  id?: number | string;
  data: unknown;
}

/** Bytes that may wait for one client before it is told it lagged and closed. */
export const MAX_QUEUED_BYTES = 1024 * 1024;

/** Time a client that lagged has to read what was queued before it is dropped. */
export const LAG_GRACE_MS = 5000;

/** Options of {@linkcode sseResponse}. */
export interface SseOptions {
  /** Caps on streams (with `key`); a stream over them answers 429. */
  slots?: ConnectionSlots;
  /** Whose stream it is (an account, or the client's address). @default "anonymous" */
  key?: string;
  /** @default MAX_QUEUED_BYTES */
  maxQueuedBytes?: number;
  /** @default LAG_GRACE_MS */
  lagGraceMs?: number;
  /** Interval of the keep-alive comment. @default 15000 */
  heartbeatMs?: number;
}

/**
 * A `text/event-stream` response fed by `subscribe`, which receives a `send` function and
 * returns the function that unsubscribes (called when the client goes away or lags).
 *
 * @throws {RateLimitedError} when `options.slots` has no slot left for `options.key`.
 */
export function sseResponse(
  c: Context,
  subscribe: (send: (item: SseItem) => void) => () => void,
  options: SseOptions = {},
): Response {
  const slot = options.slots?.take(options.key ?? "anonymous");
  if (slot === null) {
    throw new RateLimitedError("Too many event streams open; close one and retry", {
      retryAfterSeconds: 5,
    });
  }
  const release = () => slot?.release();
  // Deno's `ServeHandlerInfo.completed`: settles once the response is delivered or its
  // connection ended (absent under `app.request()`).
  const delivered = (c.env as { completed?: Promise<void> } | undefined)?.completed;
  const maxQueued = options.maxQueuedBytes ?? MAX_QUEUED_BYTES;
  const encoder = new TextEncoder();
  c.header("X-Accel-Buffering", "no");
  const res = streamSSE(c, async (stream) => {
    let queued = 0;
    let lagged: (unsent: number) => void = () => {};
    const ended = new Promise<number | null>((resolve) => {
      stream.onAbort(() => resolve(null));
      lagged = resolve;
    });
    const queue = (text: string) => {
      if (stream.aborted || stream.closed) return;
      const bytes = encoder.encode(text);
      if (queued > 0 && queued + bytes.length > maxQueued) return lagged(queued);
      queued += bytes.length;
      void stream.write(bytes).finally(() => queued -= bytes.length);
    };
    queue("retry: 2000\n\n");
    const unsubscribe = subscribe(({ id, data }) =>
      queue(`data: ${JSON.stringify(data)}${id === undefined ? "" : `\nid: ${oneLine(id)}`}\n\n`)
    );
    const beat = setInterval(() => queue(": ping\n\n"), options.heartbeatMs ?? 15_000);
    const unsent = await ended;
    clearInterval(beat);
    unsubscribe();
    try {
      if (unsent !== null) await lag(stream, unsent, options.lagGraceMs ?? LAG_GRACE_MS);
    } finally {
      // The slot is held until the connection is gone (what is queued in it included).
      if (delivered) delivered.then(release, release);
      else release();
    }
  });
  res.headers.set("Content-Type", "text/event-stream; charset=utf-8");
  return res;
}

/** An id as one line (a line break would end the field). */
function oneLine(id: number | string): string {
  return String(id).replace(/[\r\n]/g, "");
}

/** Tells a client it lagged, then ends its stream once read, or drops it after `graceMs`. */
async function lag(
  stream: Parameters<Parameters<typeof streamSSE>[1]>[0],
  unsent: number,
  graceMs: number,
): Promise<void> {
  const drop = setTimeout(() => stream.abort(), graceMs);
  try {
    void stream.write(`data: ${JSON.stringify({ type: "lagged", unsent_bytes: unsent })}\n\n`);
    await stream.close();
  } finally {
    clearTimeout(drop);
  }
}
