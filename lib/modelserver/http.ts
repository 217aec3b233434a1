/**
 * The HTTP transport shared by the REST v1 and OpenAI-compatible clients: base URL, optional
 * bearer token, a timeout on every call, and one place that maps failures to `AppError`s.
 * Requests go through Deno's `fetch` (which keeps connections, tries each address of a host
 * name and applies `HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY`).
 *
 * @module
 */

import { AppError, messageOf, UpstreamError, UsageError } from "../error.ts";
import {
  droppedStreamError,
  httpError,
  isConnectionRefused,
  timeoutError,
  unreachableError,
} from "./errors.ts";
import { readSse, type SseEvent } from "./sse.ts";
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
  /** The fetch to use (tests pass a double's handler). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Silence allowed between the bytes of an answer, and for a model load. @default 300_000 */
  timeoutMs?: number;
  /** Silence allowed before the first byte of an answer. @default min(60_000, timeoutMs) */
  firstByteMs?: number;
  /** Told while a call waits for the server (the "waiting for the server…" line). */
  onWait?: WaitReporter;
}

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

/**
 * What went wrong, in fetch's words: its `fetch failed` says nothing, the cause does (less the
 * request's URL, which the caller names).
 */
function detailOf(err: unknown): string {
  const failed = err instanceof TypeError && err.cause instanceof Error ? err.cause : err;
  return messageOf(failed).replace(/^error sending request .*?\): /, "");
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
  readonly #fetch: typeof fetch;

  /** @throws {UsageError} for a token that would split the request head (never echoed) */
  constructor(options: HttpTransportOptions) {
    this.base = options.baseUrl.replace(/\/+$/, "");
    this.where = hostPortOf(this.base);
    this.timeoutMs = options.timeoutMs ?? IDLE_MS;
    this.firstByteMs = options.firstByteMs ?? Math.min(FIRST_BYTE_MS, this.timeoutMs);
    this.#onWait = options.onWait;
    const token = options.token ?? null;
    if (token && /[\r\n\0]/.test(token)) {
      throw new UsageError("The API token must be one line: it holds a line break or a NUL");
    }
    this.#headers = {
      "content-type": "application/json",
      accept: "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Sends a request and returns the response once its headers arrived (2xx only). */
  async #send(
    method: string,
    path: string,
    body: unknown,
    what: string,
    opts: CallOptions = {},
  ): Promise<{ response: Response; watchdog: Watchdog }> {
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
    let response: Response;
    try {
      response = await this.#fetch(this.base + path, {
        method,
        headers: this.#headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: watchdog.signal,
      });
    } catch (err) {
      watchdog.clear();
      throw this.#mapError(err, watchdog, what, opts.signal);
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
    const { response, watchdog } = await this.#send(method, path, body, what, opts);
    try {
      const text = await response.text();
      return (text === "" ? null : JSON.parse(text)) as T;
    } catch (err) {
      throw this.#mapError(err, watchdog, what, opts.signal);
    } finally {
      watchdog.clear();
    }
  }

  /**
   * A streamed call: the answer's server-sent events go to `consume`, each network read resetting
   * the idle time. The body is cancelled (its connection released) when `consume` stops early.
   */
  async events<T>(
    method: string,
    path: string,
    body: unknown,
    what: string,
    opts: CallOptions,
    consume: (events: AsyncGenerator<SseEvent>) => Promise<T>,
  ): Promise<T> {
    const { response, watchdog } = await this.#send(method, path, body, what, opts);
    const stream = response.body;
    try {
      if (stream === null) throw new Error("the response has no body");
      return await consume(readSse(stream, () => watchdog.touch()));
    } catch (err) {
      throw this.#mapStreamError(err, watchdog, what, opts.signal);
    } finally {
      watchdog.clear();
      // A body `consume` never started reading is still open.
      if (stream !== null && !stream.locked) await stream.cancel().catch(() => {});
    }
  }

  /** Maps a thrown value to the error the benchmark should see. */
  #mapError(err: unknown, watchdog: Watchdog, what: string, outer?: AbortSignal): unknown {
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
    return new UpstreamError(`Cannot ${what}: ${detailOf(err)} (model server at ${this.where})`, {
      code: "upstream",
      cause: err,
    });
  }

  /** Maps an error raised while reading a stream body (a dropped connection, a stall). */
  #mapStreamError(err: unknown, watchdog: Watchdog, what: string, outer?: AbortSignal): unknown {
    if (err instanceof AppError) return err;
    if (watchdog.timedOut) return timeoutError(what, this.where, watchdog.ms);
    if (outer?.aborted) return outer.reason;
    return droppedStreamError(this.where, `the connection was dropped (${messageOf(err)})`);
  }
}
