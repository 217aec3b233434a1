/**
 * A buffered reader over a connection: one reused buffer, lines and heads found in place, and
 * the bytes handed out in pieces as they arrive.
 *
 * @module
 */

/** What the reader needs of a connection (`Deno.Conn`, `Deno.TlsConn`, a test's fake). */
export interface ByteSource {
  read(p: Uint8Array): Promise<number | null>;
}

/** A response that does not follow HTTP/1.1 (a bad status line, a bad chunk size, a cut body). */
export class HttpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HttpProtocolError";
  }
}

const CR = 13;
const LF = 10;

/** Reads a {@linkcode ByteSource} through one buffer. */
export class ByteReader {
  readonly #source: ByteSource;
  #buf: Uint8Array;
  #start = 0;
  #end = 0;
  /** Bytes received so far (0: the peer has sent nothing yet). */
  received = 0;

  constructor(source: ByteSource, size = 64 * 1024) {
    this.#source = source;
    this.#buf = new Uint8Array(size);
  }

  /** Bytes buffered and not consumed yet. */
  get buffered(): number {
    return this.#end - this.#start;
  }

  /** Reads more bytes into the buffer; false at the end of the stream. */
  async fill(): Promise<boolean> {
    if (this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#end === this.#buf.length) {
      if (this.#start > 0) {
        this.#buf.copyWithin(0, this.#start, this.#end);
        this.#end -= this.#start;
        this.#start = 0;
      } else {
        const bigger = new Uint8Array(this.#buf.length * 2);
        bigger.set(this.#buf);
        this.#buf = bigger;
      }
    }
    const n = await this.#source.read(this.#buf.subarray(this.#end));
    if (n === null) return false;
    this.#end += n;
    this.received += n;
    return true;
  }

  /**
   * Consumes a line ending in CRLF (or a bare LF) and returns it without the line end, decoded
   * as Latin-1; null when no whole line is buffered yet.
   *
   * @throws {HttpProtocolError} when the buffered part of the line is longer than `limit`
   */
  line(limit: number): string | null {
    const i = this.#buf.subarray(this.#start, this.#end).indexOf(LF);
    if (i < 0) {
      if (this.buffered > limit) throw new HttpProtocolError(`a line longer than ${limit} bytes`);
      return null;
    }
    let stop = this.#start + i;
    if (stop > this.#start && this.#buf[stop - 1] === CR) stop--;
    if (stop - this.#start > limit) {
      throw new HttpProtocolError(`a line longer than ${limit} bytes`);
    }
    const text = latin1(this.#buf.subarray(this.#start, stop));
    this.#start += i + 1;
    return text;
  }

  /** Consumes up to `max` buffered bytes (a copy). */
  take(max: number): Uint8Array {
    const n = Math.min(max, this.buffered);
    const out = this.#buf.slice(this.#start, this.#start + n);
    this.#start += n;
    return out;
  }
}

/** Bytes as Latin-1 text (HTTP heads are octets; a non-ASCII byte keeps its value). */
function latin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 4096) {
    s += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return s;
}
