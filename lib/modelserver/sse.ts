/**
 * One server-sent-events parser for all backends: `event:`+`data:` streams (LM Studio REST v1),
 * `data:`-only streams and the `[DONE]` sentinel (OpenAI-compatible servers). Tolerant of chunks
 * split anywhere, CRLF/CR/LF line ends, comments and a last event without a blank line.
 *
 * @module
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, null when the event had none. */
  event: string | null;
  /** The `data:` lines joined by `\n`. */
  data: string;
  /** The `id:` field, null when absent. */
  id: string | null;
  /**
   * `performance.now()` of the network read that completed the event (set by {@linkcode readSse}):
   * events that came in one read share it.
   */
  readAt?: number;
}

/**
 * Incremental parser: feed text with {@linkcode SseParser.push}, collect events.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SseParser } from "./sse.ts";
 * const p = new SseParser();
 * const events = [...p.push("event: a\nda"), ...p.push("ta: {}\n\n")];
 * assert.ok(events.length === 1 && events[0]!.event === "a");
 * ```
 */
export class SseParser {
  #buf = "";
  #event: string | null = null;
  #data: string[] = [];
  #id: string | null = null;
  #hasData = false;

  /** Adds text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    this.#buf += text;
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r\n|\n|\r/.exec(this.#buf);
      if (m === null) break;
      // A lone "\r" at the very end may be the first half of "\r\n": wait for more text.
      if (m[0] === "\r" && m.index === this.#buf.length - 1) break;
      const line = this.#buf.slice(0, m.index);
      this.#buf = this.#buf.slice(m.index + m[0].length);
      const ev = this.#line(line);
      if (ev !== null) out.push(ev);
    }
    return out;
  }

  /** Ends the input; returns a last event that had no blank line after it. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.#buf.length > 0) {
      const ev = this.#line(this.#buf.replace(/\r$/, ""));
      this.#buf = "";
      if (ev !== null) out.push(ev);
    }
    const last = this.#dispatch();
    if (last !== null) out.push(last);
    return out;
  }

  #line(line: string): SseEvent | null {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.#event = value;
    else if (field === "data") {
      this.#data.push(value);
      this.#hasData = true;
    } else if (field === "id") this.#id = value;
    return null;
  }

  #dispatch(): SseEvent | null {
    const ev = this.#hasData
      ? { event: this.#event, data: this.#data.join("\n"), id: this.#id }
      : null;
    this.#event = null;
    this.#data = [];
    this.#hasData = false;
    return ev;
  }
}

/** Whether an event is the OpenAI end sentinel `data: [DONE]`. */
export function isDoneEvent(ev: SseEvent): boolean {
  return ev.data.trim() === "[DONE]";
}

/** A reader of a byte stream's chunks. */
interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  releaseLock(): void;
  cancel(reason?: unknown): Promise<void>;
}

/**
 * Reads through one reused buffer when the stream is a byte stream (a fetch body): the default
 * reader of a fetch body allocates a fresh 64 KiB buffer for every chunk, and a token stream has
 * one small chunk per token. Other streams get their default reader.
 */
function bytesReader(body: ReadableStream<Uint8Array>): ChunkReader {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    return body.getReader();
  }
  let buffer = new ArrayBuffer(64 * 1024);
  return {
    async read() {
      const r = await byob.read(new Uint8Array(buffer));
      if (r.value) buffer = r.value.buffer as ArrayBuffer;
      return r.done ? { done: true, value: undefined } : { done: false, value: r.value };
    },
    releaseLock: () => byob.releaseLock(),
    cancel: (reason) => byob.cancel(reason),
  };
}

/**
 * Reads a byte stream as server-sent events; stopping early (a consumer break or an error)
 * cancels the stream, which releases a fetch body's connection.
 *
 * @param body the response body
 * @param onActivity called for every received chunk (to reset an idle timeout)
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  onActivity?: () => void,
): AsyncGenerator<SseEvent> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = bytesReader(body);
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onActivity?.();
      const readAt = performance.now();
      for (const ev of parser.push(decoder.decode(value, { stream: true }))) {
        ev.readAt = readAt;
        yield ev;
      }
    }
    finished = true;
  } finally {
    if (finished) reader.releaseLock();
    else await reader.cancel().catch(() => {});
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}
