/**
 * Server-sent events from a subscription, on Hono's `streamSSE()`: each item becomes `data:
 * <json>` and `id:`; a comment line every 15 s keeps proxies and browsers from closing the stream.
 *
 * The send queue is bounded: once more than {@linkcode MAX_QUEUED_BYTES} (counted in characters:
 * the bytes of ASCII text; plus what was sent at once on subscribing, the hub's bounded replay of a
 * reconnecting client) wait for a client, it is told it lagged (one last event
 * `{"type": "lagged", "unsent_bytes": n}`, without an id), unsubscribed, and its stream ends once
 * that is read; a client that reads nothing within {@linkcode LAG_GRACE_MS} more is dropped with
 * what was queued for it. The browser reconnects
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
export const MAX_QUEUED_BYTES = 256 * 1024;

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
  c.header("X-Accel-Buffering", "no");
  const res = streamSSE(c, async (stream) => {
    let lagged: (unsent: number) => void = () => {};
    const ended = new Promise<number | null>((resolve) => {
      stream.onAbort(() => resolve(null));
      lagged = resolve;
    });
    const out = new SendQueue(stream);
    // What `subscribe` sends at once (the hub's bounded replay) never counts as lagging.
    let limit = Infinity;
    const queue = (text: string) => {
      if (out.bytes > 0 && out.bytes + text.length > limit) lagged(out.bytes);
      else out.push(text);
    };
    queue("retry: 2000\n\n");
    const unsubscribe = subscribe(({ id, data }) =>
      queue(`data: ${JSON.stringify(data)}${id === undefined ? "" : `\nid: ${oneLine(id)}`}\n\n`)
    );
    limit = maxQueued + out.bytes;
    const beat = setInterval(() => queue(": ping\n\n"), options.heartbeatMs ?? 15_000);
    const unsent = await ended;
    clearInterval(beat);
    unsubscribe();
    const drop = setTimeout(() => stream.abort(), options.lagGraceMs ?? LAG_GRACE_MS);
    try {
      if (unsent !== null) {
        // Told after what was queued; the stream ends once read, or is dropped after the grace.
        out.push(`data: ${JSON.stringify({ type: "lagged", unsent_bytes: unsent })}\n\n`);
        await out.drained();
        await stream.close();
      }
    } finally {
      clearTimeout(drop);
      // The slot is held until the connection is gone (what is queued in it included).
      if (delivered) delivered.then(release, release);
      else release();
    }
  });
  res.headers.set("Content-Type", "text/event-stream; charset=utf-8");
  return res;
}

/** The part of Hono's stream a {@linkcode SendQueue} writes to. */
interface Writer {
  aborted: boolean;
  closed: boolean;
  write(text: string): Promise<unknown>;
}

/**
 * What waits for one client: texts joined into one write at a time, so a queue of many small
 * events costs their characters, not a pending write (and its promise) each.
 */
class SendQueue {
  #stream: Writer;
  #texts: string[] = [];
  #bytes = 0;
  #pump: Promise<void> | null = null;

  constructor(stream: Writer) {
    this.#stream = stream;
  }

  /** Characters queued or being written (the write in progress included). */
  get bytes(): number {
    return this.#bytes;
  }

  push(text: string): void {
    if (this.#stream.aborted || this.#stream.closed) return;
    this.#texts.push(text);
    this.#bytes += text.length;
    this.#pump ??= this.#run().finally(() => this.#pump = null);
  }

  /** Resolves once everything queued was written (or the stream was aborted). */
  async drained(): Promise<void> {
    while (this.#pump) await this.#pump;
  }

  async #run(): Promise<void> {
    while (this.#texts.length > 0 && !this.#stream.aborted) {
      const text = this.#texts.length === 1 ? this.#texts[0]! : this.#texts.join("");
      this.#texts = [];
      await this.#stream.write(text);
      this.#bytes -= text.length;
    }
    this.#texts = [];
    this.#bytes = 0;
  }
}

/** An id as one line (a line break would end the field). */
function oneLine(id: number | string): string {
  return String(id).replace(/[\r\n]/g, "");
}
