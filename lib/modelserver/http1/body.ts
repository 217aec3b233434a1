/**
 * Response bodies of HTTP/1.1: a `Content-Length`, chunked transfer coding, or everything until
 * the server closes. Each yields, per network read, the body bytes that read completed (one piece
 * even when the read held several chunks), so a token stream costs one step per read.
 *
 * @module
 */
import type { Framing } from "./head.ts";
import { type ByteReader, HttpProtocolError } from "./reader.ts";

const MAX_SIZE_LINE = 1024;
const MAX_TRAILER_BYTES = 16 * 1024;

/** The body's bytes as they arrive. Ends normally only after the body's last byte. */
export function bodyOf(reader: ByteReader, framing: Framing): AsyncGenerator<Uint8Array> {
  switch (framing.kind) {
    case "none":
      return (async function* () {})();
    case "length":
      return lengthBody(reader, framing.length);
    case "chunked":
      return chunkedBody(reader);
    case "close":
      return closeBody(reader);
  }
}

async function* lengthBody(reader: ByteReader, length: number): AsyncGenerator<Uint8Array> {
  let left = length;
  while (left > 0) {
    if (reader.buffered === 0 && !(await reader.fill())) {
      throw new HttpProtocolError(
        `the connection closed after ${length - left} of the body's ${length} bytes`,
      );
    }
    const piece = reader.take(left);
    left -= piece.length;
    yield piece;
  }
}

async function* closeBody(reader: ByteReader): AsyncGenerator<Uint8Array> {
  for (;;) {
    if (reader.buffered > 0) yield reader.take(reader.buffered);
    if (!(await reader.fill())) return;
  }
}

/** One piece from several, copied once. */
function joined(pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function* chunkedBody(reader: ByteReader): AsyncGenerator<Uint8Array> {
  let state: "size" | "data" | "end" | "trailer" = "size";
  let left = 0;
  let trailer = 0;
  for (;;) {
    const pieces: Uint8Array[] = [];
    for (;;) {
      if (state === "data") {
        if (reader.buffered === 0) break;
        const piece = reader.take(left);
        pieces.push(piece);
        left -= piece.length;
        if (left === 0) state = "end";
        continue;
      }
      const line = reader.line(state === "size" ? MAX_SIZE_LINE : MAX_TRAILER_BYTES);
      if (line === null) break;
      if (state === "size") {
        const m = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(line);
        if (!m) throw new HttpProtocolError(`a malformed chunk size '${line.slice(0, 40)}'`);
        left = parseInt(m[1]!, 16);
        state = left === 0 ? "trailer" : "data";
      } else if (state === "end") {
        if (line !== "") throw new HttpProtocolError("a chunk longer than its size");
        state = "size";
      } else {
        trailer += line.length + 2;
        if (trailer > MAX_TRAILER_BYTES) throw new HttpProtocolError("a trailer section too long");
        if (line === "") {
          if (pieces.length > 0) yield joined(pieces);
          return;
        }
      }
    }
    if (pieces.length > 0) yield joined(pieces);
    if (!(await reader.fill())) {
      throw new HttpProtocolError("the connection closed before the end of the chunked body");
    }
  }
}
