/**
 * The one error type of localbench. Every expected failure is an `AppError` carrying an HTTP-style
 * status; the web layer maps it to that status and `{"error": message}`, the command line maps it
 * to an exit code (400 → 2, anything else → 1).
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

/** Options of {@linkcode AppError}. */
export interface AppErrorOptions extends ErrorOptions {
  /** A short machine-readable code (e.g. `model_unloaded`, `invalid_argument`). */
  code?: string;
}

/**
 * An expected failure with a status.
 *
 * @example Throwing a 404
 * ```ts
 * import { AppError } from "./error.ts";
 * const err = new AppError(404, "Cannot find model 'x'");
 * console.assert(err.status === 404);
 * ```
 */
export class AppError extends Error {
  /** HTTP-style status (400 bad input, 404 missing, 409 conflict, 5xx failures). */
  readonly status: number;
  /** Optional machine-readable code. */
  readonly code: string | undefined;

  constructor(status: number, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.status = status;
    this.code = options.code;
  }
}

/** Shorthand for a 400 (bad input; exit code 2 on the command line). */
export function badRequest(message: string, code = "invalid_argument"): AppError {
  return new AppError(Status.BadRequest, message, { code });
}

/** The exit code the command line uses for an error. */
export function exitCodeOf(err: unknown): number {
  return err instanceof AppError && err.status === Status.BadRequest ? 2 : 1;
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
