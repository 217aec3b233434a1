/**
 * The one error handler of the web layer: an {@linkcode AppError} becomes its status and
 * `{"error": message}`; anything else is logged and becomes a 500 without internal details.
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
 * console.assert(res.status === 404);
 * ```
 */
export function errorResponse(c: Context, status: number, message: string): Response {
  return c.json({ error: message } satisfies ErrorBody, status as ContentfulStatusCode);
}

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
 * console.assert(res.status === 409);
 * ```
 */
export function errorHandler(options: ErrorHandlerOptions = {}): ErrorHandler {
  return function handleError(err, c) {
    if (err instanceof AppError) {
      if (err.status >= 500) options.logger?.error(`${c.req.method} ${c.req.path}: ${err.message}`);
      return errorResponse(c, err.status, err.message);
    }
    if (err instanceof HTTPException) {
      return errorResponse(c, err.status, err.message || "Request failed");
    }
    if (err instanceof SyntaxError) {
      return errorResponse(c, 400, "Invalid JSON body");
    }
    options.logger?.error(`${c.req.method} ${c.req.path}: ${err.stack ?? err.message}`);
    return errorResponse(c, 500, "Internal server error");
  };
}

/** The `notFound` handler: 404 with `{"error": "Not found"}`. */
export const notFoundHandler: NotFoundHandler = (c) => errorResponse(c, 404, "Not found");
