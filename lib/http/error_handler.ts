/**
 * The one error handler of the web layer: an {@linkcode AppError} (a `UsageError` 400, an
 * `UpstreamError` 502/503/504, any other with its own status) becomes its status and
 * `{"error": message, "code": code}`; anything else is logged and becomes a 500
 * `{"error": "Internal server error", "code": "internal"}` without internal details. The web app
 * renders the same failure as an HTML page for browsers (`./fw/error_pages.ts`).
 *
 * @module
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError, defaultCode } from "../error.ts";
import type { Logger } from "../log.ts";

/** Options of {@linkcode errorHandler}. */
export interface ErrorHandlerOptions {
  /** Where 5xx failures are logged. @default undefined (not logged) */
  logger?: Logger;
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

/**
 * The code of a status without a more precise one (the table is `lib/error.ts`'s).
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
  return defaultCode(status);
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
 * The status and body a thrown value answers; unexpected errors are logged (with the request)
 * and answer a 500 that names nothing internal.
 */
export function describeError(err: unknown, c: Context, logger?: Logger): ErrorInfo {
  if (err instanceof AppError) {
    if (err.status >= 500) logger?.error(`${c.req.method} ${c.req.path}: ${err.message}`);
    return { status: err.status, error: err.message, code: err.code };
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
  const e = err instanceof Error ? err : new Error(String(err));
  logger?.error(`${c.req.method} ${c.req.path}: ${e.stack ?? e.message}`);
  return { status: 500, error: "Internal server error", code: "internal" };
}

/** The failure of a request that matched no route. */
export const NOT_FOUND: ErrorInfo = { status: 404, error: "Not found", code: "not_found" };

/**
 * Creates the `onError` handler mapping errors to statuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { AppError } from "../error.ts";
 * import { errorHandler } from "./error_handler.ts";
 * const app = new Hono().get("/", () => {
 *   throw new AppError(409, "Busy", { code: "busy" });
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
