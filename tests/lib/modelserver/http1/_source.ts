/**
 * A scripted byte source for the HTTP/1.1 parser tests: each read hands out the next piece (or
 * as much of it as fits), then the end of the stream.
 *
 * @module
 */
import { ByteReader, type ByteSource } from "../../../../lib/modelserver/http1/reader.ts";

const encoder = new TextEncoder();

/** A source reading `pieces` one per read. */
export function pieces(...parts: (string | Uint8Array)[]): ByteSource & { reads: number } {
  const queue = parts.map((p) => typeof p === "string" ? encoder.encode(p) : p);
  return {
    reads: 0,
    read(p: Uint8Array): Promise<number | null> {
      this.reads++;
      const next = queue.shift();
      if (next === undefined) return Promise.resolve(null);
      const n = Math.min(p.length, next.length);
      p.set(next.subarray(0, n));
      if (n < next.length) queue.unshift(next.subarray(n));
      return Promise.resolve(n);
    },
  };
}

/** The text cut into pieces of `size` bytes. */
export function cut(text: string, size: number): Uint8Array[] {
  const bytes = encoder.encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** A reader over the text cut into pieces of `size` bytes. */
export function readerOf(text: string, size = text.length): ByteReader {
  return new ByteReader(pieces(...cut(text, Math.max(1, size))), 16);
}

/** Everything a body yields, as text, and the number of pieces. */
export async function collect(body: AsyncIterable<Uint8Array>): Promise<[string, number]> {
  const decoder = new TextDecoder();
  let text = "";
  let n = 0;
  for await (const piece of body) {
    text += decoder.decode(piece, { stream: true });
    n++;
  }
  return [text + decoder.decode(), n];
}

/** What is left in the reader and its source, as text. */
export async function rest(reader: ByteReader): Promise<string> {
  while (await reader.fill());
  return new TextDecoder().decode(reader.take(reader.buffered));
}
