/**
 * A small HTTP/1.1 client for the model servers' streams, over `Deno.connect`: the connection
 * opened while the request is put together, one write for the request, the response head parsed
 * from one reused buffer, the body handed out per network read. `fetch` spends up to 0.5 ms more
 * per request before the first byte (perf/measurement_fidelity.ts, against llama-server and a
 * replay server), which a benchmark adds to every time to first token.
 *
 * Keeps a connection for the next request when the server allows it (HTTP/1.1 without
 * `Connection: close`, a delimited body read to its end — a body left unread after the last
 * event is drained in the background, briefly), and sends a request again on a new connection
 * when a kept one turns out closed before any byte of an answer. An abort signal closes the
 * connection and rejects with the signal's reason, also while the body is read. No proxies, no
 * compression, no HTTP/2.
 *
 * @module
 */
import { bodyOf } from "./body.ts";
import {
  closeQuietly,
  type Connection,
  type Connector,
  type Endpoint,
  tcpConnector,
} from "./dial.ts";
import { type FieldsInit, framingOf, readResponseHead, requestHead, reuseOf } from "./head.ts";
import { ByteReader, HttpProtocolError } from "./reader.ts";
import { Http1Response } from "./response.ts";
import { bareHost } from "../../net.ts";

/** What a request may carry. */
export interface Http1RequestInit {
  /** @default "GET" */
  method?: string;
  headers?: FieldsInit;
  body?: string | Uint8Array | null;
  signal?: AbortSignal | null;
}

/** Options of {@linkcode Http1Client}. */
export interface Http1ClientOptions {
  /** Opens connections. @default {@linkcode tcpConnector} */
  connect?: Connector;
  /** Extra trusted certificates (PEM) for https, when `connect` is the default. */
  caCerts?: string[];
  /** Idle connections kept per origin. @default 16 */
  maxIdle?: number;
  /** How long a body left unread may take to end before its connection is closed. @default 200 */
  drainMs?: number;
}

interface Idle {
  conn: Connection;
  reader: ByteReader;
  until: number;
}

const encoder = new TextEncoder();

async function writeAll(conn: Connection, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** Settles with `promise`, or rejects with the signal's reason when it aborts first. */
function raced<T>(promise: Promise<T>, signal: AbortSignal | null): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The request's bytes: head and body in one buffer, for one write. */
function message(url: URL, method: string, init: Http1RequestInit): Uint8Array {
  const body = typeof init.body === "string" ? encoder.encode(init.body) : init.body ?? null;
  const length = body?.length ?? (/^(POST|PUT|PATCH)$/i.test(method) ? 0 : null);
  const head = encoder.encode(requestHead(method, url, init.headers ?? {}, length));
  if (body === null || body.length === 0) return head;
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

/** HTTP/1.1 requests with a pool of kept connections; `close()` ends them. */
export class Http1Client {
  readonly #connect: Connector;
  readonly #maxIdle: number;
  readonly #drainMs: number;
  readonly #idle = new Map<string, Idle[]>();
  /** Connections whose unread body is being drained. */
  readonly #draining = new Set<Connection>();
  #closed = false;

  constructor(options: Http1ClientOptions = {}) {
    this.#connect = options.connect ??
      tcpConnector(options.caCerts ? { caCerts: options.caCerts } : {});
    this.#maxIdle = options.maxIdle ?? 16;
    this.#drainMs = options.drainMs ?? 200;
  }

  /**
   * Sends a request and resolves once the response head arrived.
   *
   * @throws {TypeError} for a URL that is not http(s) or a head that could be split
   * @throws {HttpProtocolError} for an answer that is not HTTP/1.x
   * @throws the signal's reason when it aborts; the connection's error when it fails
   */
  async request(input: string | URL, init: Http1RequestInit = {}): Promise<Http1Response> {
    const url = input instanceof URL ? input : new URL(input);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`Cannot send an HTTP request to '${url.protocol}' URLs`);
    }
    const signal = init.signal ?? null;
    if (signal?.aborted) throw signal.reason;
    const key = `${url.protocol}//${url.host}`;
    const endpoint = {
      tls: url.protocol === "https:",
      hostname: bareHost(url.hostname),
      port: Number(url.port) || (url.protocol === "https:" ? 443 : 80),
    };
    let kept = this.#take(key);
    // Connecting goes on while the request is put together.
    let opening = kept ? null : this.#open(endpoint, signal);
    opening?.catch(() => {}); // awaited below; a failure to build the request must not leak it
    const method = init.method ?? "GET";
    let bytes: Uint8Array;
    try {
      bytes = message(url, method, init);
    } catch (err) {
      opening?.then(closeQuietly, () => {});
      if (kept) this.#keep(key, kept.conn, kept.reader, kept.until - performance.now());
      throw err;
    }
    for (;;) {
      const conn = kept?.conn ?? await raced(opening ?? this.#open(endpoint, signal), signal);
      const reader = kept?.reader ?? new ByteReader(conn);
      const before = reader.received;
      const onAbort = () => closeQuietly(conn);
      signal?.addEventListener("abort", onAbort, { once: true });
      let reuseMs: number | null = null;
      let released = false;
      const release = (reuse: boolean) => {
        if (released) return;
        released = true;
        signal?.removeEventListener("abort", onAbort);
        if (reuse && reuseMs !== null && reader.buffered === 0) {
          this.#keep(key, conn, reader, reuseMs);
        } else closeQuietly(conn);
      };
      try {
        await writeAll(conn, bytes);
        const head = await readResponseHead(reader);
        if (head === null) {
          throw new HttpProtocolError("the server closed the connection unanswered");
        }
        const framing = framingOf(head, method.toUpperCase());
        reuseMs = reuseOf(head, framing);
        const body = this.#guard(conn, bodyOf(reader, framing), release, signal);
        return new Http1Response(head, body, () => release(false));
      } catch (err) {
        release(false);
        if (signal?.aborted) throw signal.reason;
        if (kept && reader.received === before) { // a kept connection the server had closed
          kept = this.#take(key);
          opening = null;
          continue;
        }
        throw err;
      }
    }
  }

  /** Ends the kept connections and those being drained; later responses are not kept. */
  close(): void {
    this.#closed = true;
    for (const list of this.#idle.values()) for (const idle of list) closeQuietly(idle.conn);
    this.#idle.clear();
    for (const conn of this.#draining) closeQuietly(conn);
  }

  async #open(endpoint: Endpoint, signal: AbortSignal | null): Promise<Connection> {
    const conn = await this.#connect(endpoint);
    if (signal?.aborted) {
      closeQuietly(conn); // the caller has gone; nobody else would close it
      throw signal.reason;
    }
    return conn;
  }

  /**
   * Hands the body out. Read to its end, the connection is released for reuse; left unread (the
   * reader stopped after the last event), the rest is drained in the background, so that the
   * connection is kept, or closed without unread bytes (which would make it a reset).
   */
  async *#guard(
    conn: Connection,
    body: AsyncGenerator<Uint8Array>,
    release: (reuse: boolean) => void,
    signal: AbortSignal | null,
  ): AsyncGenerator<Uint8Array> {
    let state: "reading" | "complete" | "failed" = "reading";
    try {
      for (;;) {
        const { done, value } = await body.next();
        if (done) break;
        yield value;
      }
      state = "complete";
    } catch (err) {
      state = "failed";
      throw signal?.aborted ? signal.reason : err;
    } finally {
      if (state === "reading" && !signal?.aborted && !this.#closed) {
        this.#drain(conn, body, release);
      } else release(state === "complete");
    }
  }

  /** Reads what is left of a body for up to `drainMs`; the connection is kept if it ends. */
  async #drain(
    conn: Connection,
    body: AsyncGenerator<Uint8Array>,
    release: (reuse: boolean) => void,
  ): Promise<void> {
    this.#draining.add(conn);
    const timer = setTimeout(() => closeQuietly(conn), this.#drainMs);
    let ended = false;
    try {
      for (let bytes = 0; bytes <= 64 * 1024;) {
        const { done, value } = await body.next();
        if (done) {
          ended = true;
          break;
        }
        bytes += value.length;
      }
    } catch {
      // the server or the timer closed it: not kept
    } finally {
      clearTimeout(timer);
      this.#draining.delete(conn);
      release(ended && !this.#closed);
      if (!ended) await body.return(undefined);
    }
  }

  #take(key: string): Idle | null {
    const list = this.#idle.get(key);
    while (list && list.length > 0) {
      const idle = list.pop()!;
      if (idle.until > performance.now()) return idle;
      closeQuietly(idle.conn);
    }
    return null;
  }

  #keep(key: string, conn: Connection, reader: ByteReader, ms: number): void {
    const list = this.#idle.get(key) ?? [];
    if (this.#closed || list.length >= this.#maxIdle || ms <= 0) return closeQuietly(conn);
    list.push({ conn, reader, until: performance.now() + ms });
    this.#idle.set(key, list);
  }
}
