/**
 * The one error handler of the web layer: an {@linkcode AppError} becomes its status and
 * `{"error": message, "code": code}`; anything else is logged and becomes a 500 without internal
 * details. The web app renders the same failure as an HTML page for browsers
 * (`./fw/error_pages.ts`).
 *
 * @module
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError } from "../error.ts";
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

const STATUS_CODES: Readonly<Record<number, string>> = {
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
 * import { codeOfStatus } from "./error_handler.ts";
 * if (codeOfStatus(404) !== "not_found" || codeOfStatus(418) !== "error") throw new Error();
 * ```
 */
export function codeOfStatus(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? "internal" : "error");
}

/**
 * Builds an error response with the project's one error body shape.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { errorResponse } from "./error_handler.ts";
 * const app = new Hono().get("/", (c) => errorResponse(c, 404, "Not found"));
 * const res = await app.request("/");
 * const body = await res.json();
 * if (res.status !== 404 || body.code !== "not_found") throw new Error("wrong answer");
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
    return { status: err.status, error: err.message, code: err.code ?? codeOfStatus(err.status) };
  }
  if (err instanceof HTTPException) {
    return {
      status: err.status,
      error: err.message || "Request failed",
      code: codeOfStatus(err.status),
    };
  }
  if (err instanceof SyntaxError) {
    return { status: 400, error: "Invalid JSON body", code: "invalid_json" };
  }
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
 * import { Hono } from "hono";
 * import { AppError } from "../error.ts";
 * import { errorHandler } from "./error_handler.ts";
 * const app = new Hono().get("/", () => { throw new AppError(409, "Busy"); });
 * app.onError(errorHandler());
 * const res = await app.request("/");
 * if (res.status !== 409) throw new Error(`status ${res.status}`);
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
