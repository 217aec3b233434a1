/**
 * The commands of a G-code file, read as a stream: comments and blank lines stripped, each
 * command with the byte offset where its line ends, so a job's progress is counted in bytes of
 * the file. Memory stays bounded by the stream's chunks and one line.
 *
 * @module
 */
import { messageOf, UnprocessableError } from "../../error.ts";
import { cleanCommand, stripComment } from "../marlin/mod.ts";

/** One command of a G-code file. */
export interface GcodeLine {
  /** What to send: the line without its comment, tabs and surrounding white space. */
  command: string;
  /** The line's number in the file, from 1 (for messages). */
  lineNumber: number;
  /** Bytes of the file up to and including this line's end. */
  end: number;
}

/** Options of {@linkcode gcodeLines}. */
export interface GcodeLinesOptions {
  /**
   * Longest line kept, in bytes. A longer line is fine when its command fits before the `;`
   * of its comment (the rest is dropped unread); else it fails the read. @default 4096
   */
  maxLineBytes?: number;
}

const NEWLINE = 10;

/**
 * The commands of a G-code stream, in batches (the commands of one chunk at a time). Cancelling
 * the iteration cancels the stream.
 *
 * @throws {UnprocessableError} a line longer than `maxLineBytes` before its comment, or one that
 * is no single command (a control character or a `*`), named by its line number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gcodeLines } from "./gcode_lines.ts";
 * const file = new Blob(["; start\nG28 ; home\n\nG1 X10\n"]).stream();
 * const batches = await Array.fromAsync(gcodeLines(file));
 * assert.deepEqual(batches.flat(), [
 *   { command: "G28", lineNumber: 2, end: 19 },
 *   { command: "G1 X10", lineNumber: 4, end: 27 },
 * ]);
 * ```
 */
export async function* gcodeLines(
  stream: ReadableStream<Uint8Array>,
  options: GcodeLinesOptions = {},
): AsyncGenerator<GcodeLine[]> {
  const maxLineBytes = options.maxLineBytes ?? 4096;
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let cut = false;
  let offset = 0;
  let lineNumber = 0;
  const finish = (end: number): GcodeLine | null => {
    lineNumber++;
    const bytes = pending.length === 1 ? pending[0]! : concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    const text = decoder.decode(bytes);
    const overlong = cut && !text.includes(";");
    cut = false;
    if (overlong) {
      throw new UnprocessableError(
        `Cannot print line ${lineNumber} of the file: it is longer than ${maxLineBytes} bytes`,
        { code: "invalid_gcode" },
      );
    }
    const command = stripComment(text.replaceAll("\t", " "));
    if (command === "") return null;
    try {
      return { command: cleanCommand(command), lineNumber, end };
    } catch (err) {
      throw new UnprocessableError(
        `Cannot print line ${lineNumber} of the file: ${messageOf(err)}`,
        { code: "invalid_gcode" },
      );
    }
  };
  const keep = (part: Uint8Array) => {
    const room = maxLineBytes - pendingBytes;
    if (part.length > room) cut = true;
    const kept = part.length > room ? part.subarray(0, room) : part;
    if (kept.length > 0) {
      pending.push(kept.slice());
      pendingBytes += kept.length;
    }
  };
  for await (const chunk of stream) {
    const batch: GcodeLine[] = [];
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      keep(chunk.subarray(start, at));
      const line = finish(offset + at + 1);
      if (line) batch.push(line);
      start = at + 1;
    }
    keep(chunk.subarray(start));
    offset += chunk.length;
    if (batch.length > 0) yield batch;
  }
  if (pendingBytes > 0 || cut) {
    const line = finish(offset);
    if (line) yield [line];
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
