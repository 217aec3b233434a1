/**
 * Drains a child process's output streams line by line, keeping the last lines for error messages.
 * A child whose pipes are not read blocks once the pipe buffer fills, so every stream is drained.
 *
 * @module
 */

/** Keeps the most recent lines of one or more streams. */
export interface OutputTail {
  /** The kept lines, oldest first. */
  lines(): string[];
  /** Resolves once every drained stream has ended. */
  done: Promise<void>;
}

/** Options of {@linkcode drainOutput}. */
export interface DrainOptions {
  /** Lines kept. @default 200 */
  keep?: number;
  /** Called with every line (e.g. a debug logger). */
  onLine?: (line: string) => void;
}

/**
 * Reads every stream to its end in the background.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainOutput } from "./output_tail.ts";
 * const tail = drainOutput([ReadableStream.from([new TextEncoder().encode("a\nb\n")])]);
 * await tail.done;
 * assert.equal(tail.lines().join(), "a,b");
 * ```
 */
export function drainOutput(
  streams: ReadonlyArray<ReadableStream<Uint8Array>>,
  options: DrainOptions = {},
): OutputTail {
  const keep = options.keep ?? 200;
  const kept: string[] = [];
  const push = (line: string) => {
    kept.push(line);
    if (kept.length > keep) kept.shift();
    options.onLine?.(line);
  };
  const readOne = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    const decoder = new TextDecoder();
    try {
      for await (const bytes of stream) {
        const parts = (rest + decoder.decode(bytes, { stream: true })).split("\n");
        rest = parts.pop() ?? "";
        for (const line of parts) push(line.replace(/\r$/, ""));
      }
    } catch {
      // The process was killed mid-read: what we have is all there is.
    }
    if (rest) push(rest);
  };
  const done = Promise.all(streams.map(readOne)).then(() => undefined);
  return { lines: () => [...kept], done };
}
