/**
 * Errors across the printer process's socket: a thrown error becomes a {@linkcode WireError}
 * (its class as a `kind`, its message and code, never a stack), and the other side builds the
 * same class back, so the host's web edge answers the same status as with the printer in its
 * own process and callers still tell cases apart with `instanceof`.
 *
 * @module
 */
import {
  AppError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  SetupError,
  StorageError,
  TooLargeError,
  UnauthenticatedError,
  UnavailableError,
  UnprocessableError,
  UnreachableError,
  UpstreamError,
  UpstreamTimeoutError,
  UsageError,
} from "../../error.ts";
import {
  PrinterDisconnectedError,
  PrinterHaltedError,
  PrinterTimeoutError,
  QueueFullError,
} from "../marlin/mod.ts";

/** An error as it crosses the socket. */
export interface WireError {
  message: string;
  /** The error's machine-readable code (`printer_halted`, `busy`…); `internal` for a bug. */
  code: string;
  /** Its class (`ConflictError`, `PrinterHaltedError`…), or `internal` for anything else. */
  kind: string;
  /** Of a rate-limited or unavailable error that says when to try again. */
  retryAfterSeconds?: number;
  /** Of an upstream error, the status the server it called answered. */
  upstreamStatus?: number;
}

/** The options every class of the table takes (each reads the ones it knows). */
interface WireErrorOptions {
  code: string;
  retryAfterSeconds?: number;
  upstreamStatus?: number;
}

/** The classes carried, a subclass before its parent (the first match names the kind). */
const KINDS: Readonly<Record<string, new (message: string, o: WireErrorOptions) => AppError>> = {
  PrinterHaltedError,
  PrinterDisconnectedError,
  PrinterTimeoutError,
  QueueFullError,
  UnreachableError,
  UpstreamTimeoutError,
  UpstreamError,
  UsageError,
  UnauthenticatedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  TooLargeError,
  UnprocessableError,
  RateLimitedError,
  UnavailableError,
  SetupError,
  StorageError,
};

/** The kind of an error that is no {@linkcode AppError}: a bug. */
export const INTERNAL = "internal";

/**
 * An error as it crosses the socket. An {@linkcode AppError} of a class not in the table (a
 * subclass declared elsewhere) travels as its nearest class that is, with its own code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConflictError } from "../../error.ts";
 * import { toWireError } from "./wire_errors.ts";
 * assert.deepEqual(toWireError(new ConflictError("Printing", { code: "busy" })), {
 *   message: "Printing",
 *   code: "busy",
 *   kind: "ConflictError",
 * });
 * assert.equal(toWireError(new TypeError("x is undefined")).kind, "internal");
 * ```
 */
export function toWireError(err: unknown): WireError {
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof AppError)) return { message, code: INTERNAL, kind: INTERNAL };
  const kind = Object.entries(KINDS).find(([, type]) => err instanceof type)?.[0] ?? INTERNAL;
  const wire: WireError = { message, code: err.code, kind };
  if ("retryAfterSeconds" in err && typeof err.retryAfterSeconds === "number") {
    wire.retryAfterSeconds = err.retryAfterSeconds;
  }
  if (err instanceof UpstreamError && err.upstreamStatus !== null) {
    wire.upstreamStatus = err.upstreamStatus;
  }
  return wire;
}

/**
 * The error a {@linkcode WireError} stands for: its class with its message and code; a plain
 * `Error` for a bug on the other side (or a kind this side does not know), which the web edge
 * logs and answers with 500.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PrinterHaltedError } from "../marlin/mod.ts";
 * import { fromWireError, toWireError } from "./wire_errors.ts";
 * const back = fromWireError(toWireError(new PrinterHaltedError("Halted: kill() called")));
 * assert.ok(back instanceof PrinterHaltedError);
 * assert.equal(back.message, "Halted: kill() called");
 * ```
 */
export function fromWireError(wire: WireError): Error {
  const type = Object.hasOwn(KINDS, wire.kind) ? KINDS[wire.kind] : undefined;
  if (type === undefined) return new Error(`The printer process failed: ${wire.message}`);
  const options: WireErrorOptions = { code: wire.code };
  if (wire.retryAfterSeconds !== undefined) options.retryAfterSeconds = wire.retryAfterSeconds;
  if (wire.upstreamStatus !== undefined) options.upstreamStatus = wire.upstreamStatus;
  return new type(wire.message, options);
}
