/**
 * The one error handler of the web layer, and the web edge of the errors: a class of
 * `lib/error.ts` becomes its HTTP status ({@linkcode statusOf}) and
 * `{"error": message, "code": code}`; anything else is logged (`Logger.failure`: its stack apart
 * from the log where the logger has a detail sink) and becomes a 500
 * `{"error": "Internal server error", "code": "internal"}` without internal details. The web app
 * renders the same failure as an HTML page for browsers (`./fw/error_pages.ts`).
 *
 * @module
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  AppError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  TooLargeError,
  UnauthenticatedError,
  UnavailableError,
  UnprocessableError,
  UnreachableError,
  UpstreamError,
  UpstreamTimeoutError,
  UsageError,
} from "../error.ts";
import type { Logger } from "../log.ts";

/** The status of each error class (the first class an error is an instance of wins). */
const STATUSES: ReadonlyArray<readonly [abstract new (...args: never[]) => AppError, number]> = [
  [UsageError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [TooLargeError, 413],
  [UnprocessableError, 422],
  [RateLimitedError, 429],
  [UnreachableError, 503],
  [UpstreamTimeoutError, 504],
  [UpstreamError, 502],
  [UnavailableError, 503],
];

/**
 * The HTTP status of a thrown value: its class's (see `lib/error.ts`), 500 for any other
 * {@linkcode AppError} (setup, storage) and for anything else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NotFoundError, UnreachableError, UsageError } from "../error.ts";
 * import { statusOf } from "./error_handler.ts";
 * assert.deepEqual(
 *   [new UsageError("x"), new NotFoundError("x"), new UnreachableError("x"), new Error("x")]
 *     .map(statusOf),
 *   [400, 404, 503, 500],
 * );
 * ```
 */
export function statusOf(err: unknown): number {
  for (const [type, status] of STATUSES) if (err instanceof type) return status;
  return 500;
}

/** The JSON body of an error response. */
export interface ErrorBody {
  error: string;
  /** A short machine-readable code: the error's own, else one named after the status. */
  code: string;
}

/** What a failure answers: its status and body. */
export interface ErrorInfo extends ErrorBody {
  status: number;
}

/** The code of an answer that names none, by status. */
const CODES: Readonly<Record<number, string>> = {
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
 * The code of a status without a more precise one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codeOfStatus } from "./error_handler.ts";
 * assert.deepEqual([codeOfStatus(404), codeOfStatus(418), codeOfStatus(599)], [
 *   "not_found",
 *   "error",
 *   "internal",
 * ]);
 * ```
 */
export function codeOfStatus(status: number): string {
  return CODES[status] ?? (status >= 500 ? "internal" : "error");
}

/**
 * Builds an error response with the project's one error body shape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { errorResponse } from "./error_handler.ts";
 * const app = new Hono().get("/", (c) => errorResponse(c, 404, "Not found"));
 * const res = await app.request("/");
 * assert.equal(res.status, 404);
 * assert.deepEqual(await res.json(), { error: "Not found", code: "not_found" });
 * ```
 */
export function errorResponse(
  c: Context,
  status: number,
  message: string,
  code?: string,
): Response {
  const body: ErrorBody = { error: message, code: code ?? codeOfStatus(status) };
  return c.json(body, status as ContentfulStatusCode);
}

/**
 * The status and body a thrown value answers (and its `Retry-After`, set on `c`); unexpected
 * errors are logged (with the request) and answer a 500 that names nothing internal.
 */
export function describeError(err: unknown, c: Context, logger?: Logger): ErrorInfo {
  if (err instanceof AppError) {
    const status = statusOf(err);
    if (status >= 500) logger?.error(`${c.req.method} ${c.req.path}: ${err.message}`);
    if (
      (err instanceof RateLimitedError || err instanceof UnavailableError) &&
      err.retryAfterSeconds !== undefined
    ) {
      c.header("Retry-After", String(Math.ceil(err.retryAfterSeconds)));
    }
    return { status, error: err.message, code: err.code };
  }
  if (err instanceof HTTPException) {
    return {
      status: err.status,
      error: err.message || "Request failed",
      code: codeOfStatus(err.status),
    };
  }
  // Anything else is a bug, a SyntaxError included: the one body reader (lib/http/body.ts) turns
  // a malformed body into a UsageError itself.
  // Its stack names files: the logger's detail sink takes it (the host's `errors.log`).
  logger?.failure(`${c.req.method} ${c.req.path}`, err);
  return { status: 500, error: "Internal server error", code: "internal" };
}

/** The failure of a request that matched no route. */
export const NOT_FOUND: ErrorInfo = { status: 404, error: "Not found", code: "not_found" };

/** Options of {@linkcode errorHandler}. */
export interface ErrorHandlerOptions {
  /** Where 5xx failures are logged. @default undefined (not logged) */
  logger?: Logger;
}

/**
 * Creates the `onError` handler mapping errors to statuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { ConflictError } from "../error.ts";
 * import { errorHandler } from "./error_handler.ts";
 * const app = new Hono().get("/", () => {
 *   throw new ConflictError("Busy", { code: "busy" });
 * });
 * app.onError(errorHandler());
 * const res = await app.request("/");
 * assert.equal(res.status, 409);
 * assert.deepEqual(await res.json(), { error: "Busy", code: "busy" });
 * ```
 */
export function errorHandler(options: ErrorHandlerOptions = {}): ErrorHandler {
  return function handleError(err, c) {
    const info = describeError(err, c, options.logger);
    return errorResponse(c, info.status, info.error, info.code);
  };
}

/** The `notFound` handler: 404 with `{"error": "Not found", "code": "not_found"}`. */
export const notFoundHandler: NotFoundHandler = (c) =>
  errorResponse(c, NOT_FOUND.status, NOT_FOUND.error, NOT_FOUND.code);
