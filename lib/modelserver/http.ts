/**
 * The HTTP transport shared by the REST v1 and OpenAI-compatible clients: base URL, optional
 * bearer token, a timeout on every call, and one place that maps failures to `AppError`s.
 *
 * @module
 */

import { AppError, messageOf, UpstreamError } from "../error.ts";
import {
  droppedStreamError,
  httpError,
  isConnectionRefused,
  timeoutError,
  unreachableError,
} from "./errors.ts";
import { Http1Client, proxied } from "./http1/mod.ts";
import { type WaitReporter, Watchdog } from "./timeout.ts";

/** Silence allowed before the first byte of an answer, by default. */
export const FIRST_BYTE_MS = 60_000;
/** Silence allowed between the bytes of an answer (and for a model load), by default. */
export const IDLE_MS = 300_000;

/** Options of {@linkcode HttpTransport}. */
export interface HttpTransportOptions {
  /** e.g. `http://127.0.0.1:1234` (no trailing slash needed). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` when set. @default null */
  token?: string | null;
  /**
   * The fetch to use (tests pass a double's handler). @default the HTTP/1.1 client
   * (http1/client.ts), or `globalThis.fetch` when the environment sets a proxy for the URL
   */
  fetch?: typeof fetch;
  /** The HTTP/1.1 client when no `fetch` is given (tests pass one with their certificates). */
  client?: Http1Client;
  /** Silence allowed between the bytes of an answer, and for a model load. @default 300_000 */
  timeoutMs?: number;
  /** Silence allowed before the first byte of an answer. @default min(60_000, timeoutMs) */
  firstByteMs?: number;
  /** Told while a call waits for the server (the "waiting for the server…" line). */
  onWait?: WaitReporter;
}

/** What the callers read of a response: a fetch `Response` or the HTTP/1.1 client's. */
export interface StreamResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}

/** Sends one request (a fetch, or the HTTP/1.1 client's `request`). */
type Requester = (
  url: URL,
  init: {
    method: string;
    headers: Record<string, string>;
    body: string | undefined;
    signal: AbortSignal;
  },
) => Promise<StreamResponse>;

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the transport's silence allowed between bytes. */
  timeoutMs?: number;
  /** Overrides the silence allowed before the first byte (a model load waits longer). */
  firstByteMs?: number;
}

/** `host:port` of a URL, with the default port filled in. */
export function hostPortOf(url: string): string {
  const u = new URL(url);
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return `${u.hostname}:${port}`;
}

/** A base URL, a token and a timeout; JSON calls and streams with mapped errors. */
export class HttpTransport {
  /** Base URL without trailing slash. */
  readonly base: string;
  /** `host:port`, used in error messages. */
  readonly where: string;
  readonly timeoutMs: number;
  readonly firstByteMs: number;
  readonly #onWait: WaitReporter | undefined;
  readonly #headers: Record<string, string>;
  readonly #urls = new Map<string, URL>();
  readonly #request: Requester;
  readonly #client: Http1Client | null = null;

  constructor(options: HttpTransportOptions) {
    this.base = options.baseUrl.replace(/\/+$/, "");
    this.where = hostPortOf(this.base);
    this.timeoutMs = options.timeoutMs ?? IDLE_MS;
    this.firstByteMs = options.firstByteMs ?? Math.min(FIRST_BYTE_MS, this.timeoutMs);
    this.#onWait = options.onWait;
    const token = options.token ?? null;
    this.#headers = {
      "content-type": "application/json",
      accept: "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    if (options.fetch) this.#request = options.fetch;
    else if (!/^https?:/.test(this.base) || proxied(new URL(this.base))) {
      this.#request = globalThis.fetch.bind(globalThis);
    } else {
      const client = this.#client = options.client ?? new Http1Client();
      this.#request = (url, init) => client.request(url, init);
    }
  }

  /** Ends the connections kept for the next request. */
  close(): void {
    this.#client?.close();
  }

  /** The URL of a path on the server (parsed once per path). */
  #url(path: string): URL {
    let url = this.#urls.get(path);
    if (url === undefined) {
      url = new URL(this.base + path);
      if (this.#urls.size < 64) this.#urls.set(path, url);
    }
    return url;
  }

  /** Sends a request and returns the response once its headers arrived (2xx only). */
  async send(
    method: string,
    path: string,
    body: unknown,
    what: string,
    opts: CallOptions = {},
  ): Promise<{ response: StreamResponse; watchdog: Watchdog }> {
    const idleMs = opts.timeoutMs ?? this.timeoutMs;
    const watchdog = new Watchdog(
      opts.firstByteMs ?? Math.min(this.firstByteMs, idleMs),
      opts.signal,
      {
        idleMs,
        what,
        ...(this.#onWait ? { onWait: this.#onWait } : {}),
      },
    );
    let response: StreamResponse;
    try {
      response = await this.#request(this.#url(path), {
        method,
        headers: this.#headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: watchdog.signal,
      });
    } catch (err) {
      watchdog.clear();
      throw this.mapError(err, watchdog, what, opts.signal);
    }
    watchdog.touch(); // the headers are the first byte; from here on the idle time applies
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      watchdog.clear();
      throw httpError(response.status, text);
    }
    return { response, watchdog };
  }

  /** A JSON call: the first byte within the first-byte time, the body within the idle time. */
  async json<T>(
    method: string,
    path: string,
    body: unknown,
    what: string,
    opts: CallOptions = {},
  ): Promise<T> {
    const { response, watchdog } = await this.send(method, path, body, what, opts);
    try {
      const text = await response.text();
      return (text === "" ? null : JSON.parse(text)) as T;
    } catch (err) {
      throw this.mapError(err, watchdog, what, opts.signal);
    } finally {
      watchdog.clear();
    }
  }

  /** Maps a thrown value to the error the engine should see. */
  mapError(err: unknown, watchdog: Watchdog, what: string, outer?: AbortSignal): unknown {
    if (err instanceof AppError) return err;
    if (watchdog.timedOut) return timeoutError(what, this.where, watchdog.ms);
    if (outer?.aborted) return outer.reason;
    if (isConnectionRefused(err)) return unreachableError(this.where, err);
    if (err instanceof SyntaxError) {
      return new UpstreamError(`Cannot ${what}: the model server sent invalid JSON`, {
        code: "bad_response",
        cause: err,
      });
    }
    return new UpstreamError(`Cannot ${what}: ${messageOf(err)} (model server at ${this.where})`, {
      code: "upstream",
      cause: err,
    });
  }

  /** Maps an error raised while reading a stream body (a dropped connection, a stall). */
  mapStreamError(err: unknown, watchdog: Watchdog, what: string, outer?: AbortSignal): unknown {
    if (err instanceof AppError) return err;
    if (watchdog.timedOut) return timeoutError(what, this.where, watchdog.ms);
    if (outer?.aborted) return outer.reason;
    return droppedStreamError(this.where, `the connection was dropped (${messageOf(err)})`);
  }
}
