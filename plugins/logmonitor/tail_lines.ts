/**
 * Splitting a tailed file's new bytes into lines, in bounded memory. At most
 * {@linkcode MAX_TAIL_LINE_BYTES} of a line are kept while it is being written; a longer line is
 * cut as search cuts it: its first {@linkcode MAX_ENTRY_CHARS} characters and
 * {@linkcode CUT_MARK}, whatever its length (the rest is counted, never held). So a 200 MiB line
 * costs the tail 64 KiB, not 200 MiB, and each chunk is scanned once.
 *
 * @module
 */
import { CUT_MARK, MAX_ENTRY_CHARS } from "./entries.ts";

/**
 * Most bytes of one line kept while it is read: four times {@linkcode MAX_ENTRY_CHARS}, so a
 * line longer than this always decodes to more characters than an entry shows (UTF-8 spends at
 * most 3 bytes per UTF-16 unit) and is cut with the marker.
 */
export const MAX_TAIL_LINE_BYTES = 4 * MAX_ENTRY_CHARS;

/** Lines found in some bytes, and each line's size in the file (line end included). */
export interface SplitLines {
  lines: string[];
  sizes: number[];
}

/**
 * Splits bytes into lines (without `\n` or `\r\n`), holding the start of an unfinished line for
 * the next chunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineSplitter } from "./tail_lines.ts";
 * const s = new LineSplitter();
 * const enc = new TextEncoder();
 * assert.deepEqual(s.push(enc.encode("a\r\nb")), { lines: ["a"], sizes: [3] });
 * assert.deepEqual(s.push(enc.encode("c\n")), { lines: ["bc"], sizes: [3] });
 * ```
 */
export class LineSplitter {
  #max: number;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  /** Bytes of the unfinished line in the file (held or not). */
  #lineBytes = 0;
  #decoder = new TextDecoder("utf-8", { fatal: false });

  /** `maxLineBytes`: bytes of a line kept (tests use less). */
  constructor(maxLineBytes = MAX_TAIL_LINE_BYTES) {
    if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new RangeError("Cannot split lines: 'maxLineBytes' must be a positive integer");
    }
    this.#max = maxLineBytes;
  }

  /** Bytes of the unfinished line seen so far (0 between lines). */
  get pending(): number {
    return this.#lineBytes;
  }

  /** Adds the next bytes of the file; returns the lines they finish. */
  push(chunk: Uint8Array): SplitLines {
    const out: SplitLines = { lines: [], sizes: [] };
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) {
        this.#hold(chunk.subarray(start));
        break;
      }
      const piece = chunk.subarray(start, nl);
      const bytes = this.#heldBytes === 0 && piece.length <= this.#max
        ? piece
        : this.#joined(piece);
      out.lines.push(this.#text(bytes, this.#lineBytes + piece.length));
      out.sizes.push(this.#lineBytes + piece.length + 1);
      this.#reset();
      start = nl + 1;
    }
    return out;
  }

  /** Ends the unfinished line (the file was rotated or truncated); no line when there is none. */
  flush(): SplitLines {
    if (this.#lineBytes === 0) return { lines: [], sizes: [] };
    const size = this.#lineBytes;
    const text = this.#text(this.#joined(new Uint8Array(0)), size);
    this.#reset();
    return { lines: [text], sizes: [size] };
  }

  #hold(piece: Uint8Array): void {
    this.#lineBytes += piece.length;
    const room = this.#max - this.#heldBytes;
    if (room <= 0 || piece.length === 0) return;
    const kept = piece.slice(0, room); // a copy: the caller's chunk is not retained
    this.#held.push(kept);
    this.#heldBytes += kept.length;
  }

  #joined(last: Uint8Array): Uint8Array {
    const tail = last.subarray(0, Math.max(0, this.#max - this.#heldBytes));
    const out = new Uint8Array(this.#heldBytes + tail.length);
    let at = 0;
    for (const part of this.#held) {
      out.set(part, at);
      at += part.length;
    }
    out.set(tail, at);
    return out;
  }

  /** The text of a line of `length` bytes (without its `\n`) from its kept bytes. */
  #text(kept: Uint8Array, length: number): string {
    const s = this.#decoder.decode(kept);
    if (length > this.#max) return s.slice(0, Math.min(s.length, MAX_ENTRY_CHARS)) + CUT_MARK;
    return s.endsWith("\r") ? s.slice(0, -1) : s;
  }

  #reset(): void {
    this.#held = [];
    this.#heldBytes = 0;
    this.#lineBytes = 0;
  }
}
