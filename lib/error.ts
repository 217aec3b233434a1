/**
 * The error types of localbench, one per meaning:
 *
 * - {@linkcode UsageError}: the caller asked for something invalid (a bad argument, body or
 *   setting): HTTP 400, command-line exit code 2.
 * - {@linkcode UpstreamError}: a server we call (the model server, the engine, the hub) failed or
 *   answered with an error: HTTP 502 (503 unreachable, 504 silent), exit code 1, whatever status
 *   the server itself answered with (kept in `upstreamStatus`).
 * - {@linkcode AppError}: any other expected failure, with an explicit status (401, 403, 404,
 *   409, 413, 422, 429, 500, 503 ...): exit code 1.
 *
 * Anything else thrown is internal: a logged 500 without details on the web, exit code 1 on the
 * command line. Every error carries a machine-readable `code`; the web body is always
 * `{"error": message, "code": code}` (see `lib/http/error_handler.ts`).
 *
 * @module
 */

/** Statuses used across the project, by meaning. */
export const Status = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  Unprocessable: 422,
  TooManyRequests: 429,
  Internal: 500,
  BadGateway: 502,
  Unavailable: 503,
  Timeout: 504,
} as const;

/** The status of an {@linkcode AppError}: 400 belongs to {@linkcode UsageError} alone. */
export type AppErrorStatus = Exclude<(typeof Status)[keyof typeof Status], 400>;

/** The statuses of an {@linkcode UpstreamError}. */
export type UpstreamStatus = 502 | 503 | 504;

/** Passed by {@linkcode UsageError} alone (not exported): the one way to make a 400. */
const USAGE: unique symbol = Symbol("usage");

/** The code of an error that names none, by status. */
const DEFAULT_CODES: Readonly<Record<number, string>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "too_many_requests",
  500: "internal",
  502: "bad_gateway",
  503: "unavailable",
  504: "timeout",
};

/**
 * The code an error of `status` carries when it names none (one table for every error and for
 * the web layer's answers).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultCode } from "./error.ts";
 * assert.equal(defaultCode(404), "not_found");
 * assert.equal(defaultCode(418), "error");
 * assert.equal(defaultCode(599), "internal");
 * ```
 */
export function defaultCode(status: number): string {
  return DEFAULT_CODES[status] ?? (status >= 500 ? "internal" : "error");
}

/** Options of {@linkcode AppError}. */
export interface AppErrorOptions extends ErrorOptions {
  /** A short machine-readable code (e.g. `not_found`). @default by status */
  code?: string;
}

/**
 * An expected failure with an explicit status (not a usage error, see {@linkcode UsageError}).
 *
 * @example Throwing a 404
 * ```ts
 * import assert from "node:assert/strict";
 * import { AppError } from "./error.ts";
 * const err = new AppError(404, "Cannot find model 'x'");
 * assert.equal(err.status, 404);
 * assert.equal(err.code, "not_found");
 * ```
 */
export class AppError extends Error {
  /** HTTP status (401, 403, 404, 409, 413, 422, 429, 5xx). */
  readonly status: number;
  /** Machine-readable code. */
  readonly code: string;

  constructor(
    status: AppErrorStatus | typeof USAGE,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.status = status === USAGE ? Status.BadRequest : status;
    this.code = options.code ?? defaultCode(this.status);
  }
}

/**
 * Bad input from the caller (an argument, a request body, a setting): HTTP 400, exit code 2.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitCodeOf, UsageError } from "./error.ts";
 * const err = new UsageError("Invalid --port 'x': must be 0..65535");
 * assert.deepEqual([err.status, err.code, exitCodeOf(err)], [400, "bad_request", 2]);
 * ```
 */
export class UsageError extends AppError {
  constructor(message: string, options: AppErrorOptions = {}) {
    super(USAGE, message, options);
    this.name = "UsageError";
  }
}

/** Options of {@linkcode UpstreamError}. */
export interface UpstreamErrorOptions extends AppErrorOptions {
  /** 502 failed, 503 unreachable, 504 silent too long. @default 502 */
  status?: UpstreamStatus;
  /** The HTTP status the server answered with, when it answered. */
  upstreamStatus?: number;
}

/**
 * A server we call failed or refused (the model server, the engine, the hub): HTTP 502 (or 503,
 * 504), exit code 1, even when the server answered 400: its 400 is not the user's mistake.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitCodeOf, UpstreamError } from "./error.ts";
 * const err = new UpstreamError("Bad request (HTTP 400)", { upstreamStatus: 400 });
 * assert.deepEqual([err.status, err.upstreamStatus, exitCodeOf(err)], [502, 400, 1]);
 * ```
 */
export class UpstreamError extends AppError {
  /** 502, 503 or 504. */
  declare readonly status: UpstreamStatus;
  /** The HTTP status the server answered with, or null when it did not answer over HTTP. */
  readonly upstreamStatus: number | null;

  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(options.status ?? Status.BadGateway, message, options);
    this.name = "UpstreamError";
    this.upstreamStatus = options.upstreamStatus ?? null;
  }
}

/**
 * Shorthand for a {@linkcode UsageError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { badRequest, UsageError } from "./error.ts";
 * assert.ok(badRequest("Unknown argument '--x'") instanceof UsageError);
 * ```
 */
export function badRequest(message: string, code = "invalid_argument"): UsageError {
  return new UsageError(message, { code });
}

/**
 * The exit code the command line uses for an error: 2 for a {@linkcode UsageError}, else 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AppError, exitCodeOf, UsageError } from "./error.ts";
 * assert.equal(exitCodeOf(new UsageError("bad")), 2);
 * assert.equal(exitCodeOf(new AppError(404, "missing")), 1);
 * assert.equal(exitCodeOf(new TypeError("bug")), 1);
 * ```
 */
export function exitCodeOf(err: unknown): number {
  return err instanceof UsageError ? 2 : 1;
}

/** The HTTP status of an error: its own for an {@linkcode AppError}, else 500. */
export function statusOf(err: unknown): number {
  return err instanceof AppError ? err.status : Status.Internal;
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
