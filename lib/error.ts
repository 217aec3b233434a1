/**
 * The errors of localbench, one class per meaning. Domain code throws them and knows nothing of
 * HTTP statuses or exit codes: the web edge maps a class to its status
 * (`lib/http/error_handler.ts`), the command line's edge to its exit code
 * ({@linkcode exitCodeOf}). Callers branch with `instanceof`, never on a message or a code.
 *
 * Every class extends {@linkcode AppError} and carries a machine-readable `code` (the `code` of
 * the web's `{"error", "code"}` body): the class's own by default, a more precise one where a
 * client tells failures apart (`busy`, `invalid_transition`...). Anything else thrown is a bug:
 * a logged 500 without details on the web, exit code 1 on the command line.
 *
 * @module
 */

/** Options of every {@linkcode AppError}. */
export interface AppErrorOptions extends ErrorOptions {
  /** A short machine-readable code (e.g. `busy`). @default the class's */
  code?: string;
}

/** An expected failure; its subclass says what it means. */
export abstract class AppError extends Error {
  /** Machine-readable code. */
  readonly code: string;

  constructor(message: string, code: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? code;
  }
}

/** The base of an error class whose code is `code` unless the thrower names a more precise one. */
function coded(code: string) {
  return class extends AppError {
    constructor(message: string, options?: AppErrorOptions) {
      super(message, code, options);
    }
  };
}

/** Options of the errors that say when to try again. */
export interface RetryLaterOptions extends AppErrorOptions {
  /** Seconds after which a retry may succeed (the web's `Retry-After`). */
  retryAfterSeconds?: number;
}

/** {@linkcode coded}, for an error that may say when to try again (`retryAfterSeconds`). */
function retryable(code: string) {
  return class extends AppError {
    /** Seconds after which a retry may succeed, when known. */
    readonly retryAfterSeconds: number | undefined;

    constructor(message: string, options: RetryLaterOptions = {}) {
      super(message, code, options);
      this.retryAfterSeconds = options.retryAfterSeconds;
    }
  };
}

/**
 * Bad input from the caller: an argument, a request body, a setting (HTTP 400, exit code 2).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitCodeOf, UsageError } from "./error.ts";
 * const err = new UsageError("Invalid --port 'x': must be 0..65535");
 * assert.deepEqual([err.code, exitCodeOf(err)], ["bad_request", 2]);
 * ```
 */
export class UsageError extends coded("bad_request") {}

/** Shorthand for a {@linkcode UsageError} with code `invalid_argument` (or `code`). */
export function badRequest(message: string, code = "invalid_argument"): UsageError {
  return new UsageError(message, { code });
}

/** Who asks is not known: no key, a wrong key, an ended session (HTTP 401). */
export class UnauthenticatedError extends coded("unauthorized") {}

/** Who asks may not do this: a missing permission, a foreign origin, a disabled feature (403). */
export class ForbiddenError extends coded("forbidden") {}

/**
 * What was named does not exist: a model, a preset, a file, a user (HTTP 404).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AppError, exitCodeOf, NotFoundError } from "./error.ts";
 * const err = new NotFoundError("Cannot find model 'x'");
 * assert.ok(err instanceof AppError);
 * assert.deepEqual([err.name, err.code, exitCodeOf(err)], ["NotFoundError", "not_found", 1]);
 * ```
 */
export class NotFoundError extends coded("not_found") {}

/** The current state does not allow it: busy, read-only, already running, locked (409). */
export class ConflictError extends coded("conflict") {}

/** Too big to take: a body, a file (HTTP 413). */
export class TooLargeError extends coded("payload_too_large") {}

/**
 * Well-formed but unusable content: a configuration or preset file that does not parse or
 * validate, a search pattern too slow to run (HTTP 422).
 */
export class UnprocessableError extends coded("unprocessable") {}

/** The caller asks too often (HTTP 429, `Retry-After` when known). */
export class RateLimitedError extends retryable("too_many_requests") {}

/** Not available now: shutting down, at capacity, no tray host (HTTP 503, `Retry-After`). */
export class UnavailableError extends retryable("unavailable") {}

/**
 * This installation or machine lacks something localbench needs: a built bundle, a font, a
 * command, the engine (HTTP 500 with the message, which says how to fix it).
 */
export class SetupError extends coded("setup") {}

/** Stored data cannot be read or written: a damaged store, an unwritable folder (HTTP 500). */
export class StorageError extends coded("storage") {}

/** Options of {@linkcode UpstreamError}. */
export interface UpstreamErrorOptions extends AppErrorOptions {
  /** The HTTP status the server answered with, when it answered. */
  upstreamStatus?: number;
}

/**
 * A server we call failed or refused (the model server, the engine, the hub, the dashboard the
 * tray drives), even when it answered 400: its 400 is not the user's mistake (HTTP 502, exit 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitCodeOf, UpstreamError } from "./error.ts";
 * const err = new UpstreamError("Bad request (HTTP 400)", { upstreamStatus: 400 });
 * assert.deepEqual([err.code, err.upstreamStatus, exitCodeOf(err)], ["bad_gateway", 400, 1]);
 * ```
 */
export class UpstreamError extends AppError {
  /** The HTTP status the server answered with, or null when it did not answer over HTTP. */
  readonly upstreamStatus: number | null;

  constructor(message: string, options: UpstreamErrorOptions = {}, code = "bad_gateway") {
    super(message, code, options);
    this.upstreamStatus = options.upstreamStatus ?? null;
  }
}

/** The server we call cannot be reached: nothing listens, it went away (HTTP 503). */
export class UnreachableError extends UpstreamError {
  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(message, options, "unreachable");
  }
}

/** The server we call stayed silent longer than allowed (HTTP 504). */
export class UpstreamTimeoutError extends UpstreamError {
  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(message, options, "timeout");
  }
}

/**
 * The exit code of the command line for an error: 2 for a {@linkcode UsageError}, else 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitCodeOf, NotFoundError, UsageError } from "./error.ts";
 * assert.equal(exitCodeOf(new UsageError("bad")), 2);
 * assert.equal(exitCodeOf(new NotFoundError("missing")), 1);
 * assert.equal(exitCodeOf(new TypeError("bug")), 1);
 * ```
 */
export function exitCodeOf(err: unknown): number {
  return err instanceof UsageError ? 2 : 1;
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
