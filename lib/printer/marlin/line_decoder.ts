/**
 * Lines out of the bytes a printer sends: chunks split anywhere (inside a line or a UTF-8
 * character), ends of line `\n`, `\r\n` or `\r`, and a cap on a line's length so a printer that
 * sends garbage without line ends cannot make the host's memory grow.
 *
 * @module
 */

/** What {@linkcode LineDecoder.push} found: a line, or the news that an overlong one was dropped. */
export type DecodedLine =
  | { type: "line"; text: string }
  | { type: "overflow"; bytes: number };

/** Options of {@linkcode LineDecoder}. */
export interface LineDecoderOptions {
  /** Longest line kept, in bytes; a longer one is dropped up to its end of line. @default 4096 */
  maxLineBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into text lines. Invalid UTF-8 becomes U+FFFD, never an exception.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineDecoder } from "./line_decoder.ts";
 * const decoder = new LineDecoder();
 * const enc = new TextEncoder();
 * assert.deepEqual(decoder.push(enc.encode("o")), []);
 * assert.deepEqual(decoder.push(enc.encode("k\r\nwait\n")), [
 *   { type: "line", text: "ok" },
 *   { type: "line", text: "wait" },
 * ]);
 * ```
 */
export class LineDecoder {
  #buffer: Uint8Array;
  #length = 0;
  /** Dropping an overlong line until its end. */
  #skipping = false;
  /** The previous byte ended a line with `\r` (a `\n` right after it ends nothing more). */
  #afterCr = false;
  #decoder = new TextDecoder();

  constructor(options: LineDecoderOptions = {}) {
    const max = options.maxLineBytes ?? 4096;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError("Cannot decode lines: 'maxLineBytes' must be a positive integer");
    }
    this.#buffer = new Uint8Array(max);
  }

  /** Bytes held of a line not yet ended (at most `maxLineBytes`). */
  get buffered(): number {
    return this.#length;
  }

  /** Takes the next chunk; returns the lines it completed, in order. */
  push(chunk: Uint8Array): DecodedLine[] {
    const out: DecodedLine[] = [];
    for (const byte of chunk) {
      const afterCr = this.#afterCr;
      this.#afterCr = byte === CR;
      if (byte === LF || byte === CR) {
        if (byte === LF && afterCr) continue;
        if (this.#skipping) this.#skipping = false;
        else out.push({ type: "line", text: this.#take() });
      } else if (!this.#skipping) {
        if (this.#length === this.#buffer.length) {
          out.push({ type: "overflow", bytes: this.#length });
          this.#length = 0;
          this.#skipping = true;
        } else this.#buffer[this.#length++] = byte;
      }
    }
    return out;
  }

  #take(): string {
    const text = this.#decoder.decode(this.#buffer.subarray(0, this.#length));
    this.#length = 0;
    return text;
  }
}
