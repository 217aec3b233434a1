/**
 * The shared-memory protocol between the synchronous PostgreSQL bridge (bridge.ts, the calling
 * thread) and its worker (worker.ts, which owns the `pg` client). The calling thread posts a
 * request and blocks in `Atomics.wait` on the first word of a growable `SharedArrayBuffer`; the
 * worker writes the JSON answer after the header, its length in the second word, then sets the
 * first word to {@linkcode READY} and notifies.
 *
 * @module
 */

/** The first word while the calling thread waits for an answer. */
export const WAITING = 0;
/** The first word once the answer is written. */
export const READY = 1;
/** Bytes before the answer: the state word and the length word (Int32 each), padded. */
export const HEADER_BYTES = 16;
/** The answer buffer's first size and the most it may grow to (large result sets). */
export const INITIAL_BYTES = 1 << 16;
export const MAX_BYTES = 1 << 30;

/** How to reach the server: `pg`'s client configuration (no secret is ever logged). */
export interface ConnectRequest {
  kind: "connect";
  connectionString: string;
  /** `pg`'s `ssl` option (`sslmode=require` → `{ rejectUnauthorized: false }`). */
  ssl?: boolean | { rejectUnauthorized: boolean };
  connectTimeoutMs: number;
  /** The server-side `statement_timeout` of every statement, in ms (0: none). */
  statementTimeoutMs: number;
}

/** One statement: with `params`, one statement (extended protocol); without, a script. */
export interface QueryRequest {
  kind: "query";
  sql: string;
  params?: unknown[];
}

/** Ends the connection; the worker then closes itself. */
export interface CloseRequest {
  kind: "close";
}

/** A request without its buffer. */
export type Call = ConnectRequest | QueryRequest | CloseRequest;

/** What the calling thread posts, with the buffer the answer goes into. */
export type Request = Call & { buffer: SharedArrayBuffer };

/** A statement's rows and how many rows it changed. */
export interface QueryAnswer {
  ok: true;
  rows: Record<string, unknown>[];
  rowCount: number;
}

/** A failure: the server's message, its SQLSTATE (`code`) and detail when it gave them. */
export interface FailureAnswer {
  ok: false;
  message: string;
  code?: string;
  detail?: string;
}

/** The worker's answer to any request. */
export type Answer = QueryAnswer | FailureAnswer;
