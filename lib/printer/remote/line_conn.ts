/**
 * A socket connection as lines both ways, bounded: incoming lines are capped in length (a longer
 * one is dropped and reported), outgoing lines wait in a queue capped in bytes (a peer that stops
 * reading is dropped, never buffered for ever). Both ends of the printer's socket use it.
 *
 * @module
 */
import { type DecodedLine, LineDecoder } from "../marlin/mod.ts";

/** Options of {@linkcode LineConn}. */
export interface LineConnOptions {
  /** Longest incoming line, in bytes; a longer one is dropped and reported as an overflow. */
  maxLineBytes: number;
  /**
   * Most bytes waiting to be written; a line that would pass it closes the connection (a line
   * longer than this alone is still written when nothing waits). @default Infinity
   */
  maxQueueBytes?: number;
  /** Each incoming line, or the news that an overlong one was dropped. */
  onLine(line: DecodedLine): void;
  /** Called once when the connection ends: closed by the peer, by an error or by this side. */
  onClose?(reason: "ended" | "overflow"): void;
}

/** A connection read and written line by line. */
export class LineConn {
  readonly #conn: Deno.Conn;
  readonly #maxQueue: number;
  readonly #onClose: ((reason: "ended" | "overflow") => void) | undefined;
  #queue: Uint8Array[] = [];
  #queued = 0;
  #writing: Promise<void> | null = null;
  #closed = false;
  #ending = false;
  /** Settles once reading and writing ended and the connection is closed. */
  readonly done: Promise<void>;

  constructor(conn: Deno.Conn, options: LineConnOptions) {
    this.#conn = conn;
    this.#maxQueue = options.maxQueueBytes ?? Infinity;
    this.#onClose = options.onClose;
    this.done = this.#read(new LineDecoder({ maxLineBytes: options.maxLineBytes }), options.onLine)
      .then(() => this.#writing ?? undefined);
  }

  /** Whether the connection ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Queues one encoded line; false when the connection is closed or this send closed it. */
  send(line: Uint8Array): boolean {
    if (this.#closed) return false;
    if (this.#queued > 0 && this.#queued + line.length > this.#maxQueue) {
      this.#close("overflow");
      return false;
    }
    this.#queue.push(line);
    this.#queued += line.length;
    this.#writing ??= this.#write();
    return true;
  }

  /** Ends the connection once the lines queued are written. */
  end(): void {
    this.#ending = true;
    if (this.#writing === null) this.#close("ended");
  }

  /** Ends the connection now (lines still queued are dropped). Safe to call more than once. */
  close(): void {
    this.#close("ended");
  }

  #close(reason: "ended" | "overflow"): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#queued = 0;
    try {
      this.#conn.close();
    } catch {
      // Already closed by the runtime.
    }
    this.#onClose?.(reason);
  }

  async #read(decoder: LineDecoder, onLine: (line: DecodedLine) => void): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await this.#conn.read(buffer);
        if (n === null) break;
        for (const line of decoder.push(buffer.subarray(0, n))) {
          if (this.#closed) break;
          onLine(line);
        }
      }
    } catch {
      // Closed by this side or reset by the peer: the connection ended either way.
    }
    this.#close("ended");
  }

  async #write(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const line = this.#queue[0]!;
        for (let done = 0; done < line.length;) {
          done += await this.#conn.write(line.subarray(done));
        }
        if (this.#closed) return;
        this.#queue.shift();
        this.#queued -= line.length;
      }
    } catch {
      this.#close("ended");
    } finally {
      this.#writing = null;
    }
    if (this.#ending) this.#close("ended");
  }
}
