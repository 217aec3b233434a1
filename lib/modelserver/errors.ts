/**
 * Error mapping for every backend: connection refused, timeouts, HTTP error bodies, dropped
 * streams, and recognising "Model unloaded" so the benchmark can reload and retry once. Every
 * failure of the model server is an {@linkcode UpstreamError} (502, or 503 unreachable, 504
 * silent): its own status, even a 400, is kept in `upstreamStatus` and never becomes ours.
 *
 * @module
 */

import {
  messageOf,
  UnreachableError,
  UpstreamError,
  type UpstreamErrorOptions,
  UpstreamTimeoutError,
} from "../error.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** The model server unloaded the model under a request (the benchmark reloads and retries once). */
export class ModelUnloadedError extends UpstreamError {
  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(message, options, "model_unloaded");
  }
}

/** The model server refused our credentials (a missing or wrong API token). */
export class AuthRefusedError extends UpstreamError {
  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(message, options, "auth");
  }
}

const UNLOADED_RE = /model unloaded/i;

/**
 * Whether an error says the model was unloaded (the benchmark reloads and retries once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UpstreamError } from "../error.ts";
 * import { isModelUnloaded } from "./errors.ts";
 * assert.ok(isModelUnloaded(new UpstreamError("Model unloaded (HTTP 500)")));
 * assert.ok(!isModelUnloaded(new UpstreamError("Model not found (HTTP 404)")));
 * ```
 */
export function isModelUnloaded(err: unknown): boolean {
  if (err instanceof ModelUnloadedError) return true;
  return UNLOADED_RE.test(messageOf(err));
}

/** The 503 raised when nothing listens at `host:port`. */
export function unreachableError(where: string, cause?: unknown): UnreachableError {
  return new UnreachableError(`Cannot reach the model server at ${where}: connection refused`, {
    cause,
  });
}

/** `0.2 s`, `60 s`. */
export function secondsText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 1000)} s`;
}

/** The 504 raised when the server stays silent longer than allowed. */
export function timeoutError(what: string, where: string, ms: number): UpstreamTimeoutError {
  return new UpstreamTimeoutError(
    `The model server at ${where} sent nothing for ${secondsText(ms)} when asked to ${what}: ` +
      `check that a model server (not another program) listens there and is not stuck, or ` +
      `wait longer with --request-timeout SECONDS`,
  );
}

/**
 * The error raised when the server refuses the request for want of a (valid) API token (the
 * model server refused us; the caller of the dashboard is not at fault).
 */
export function authError(where: string, tokenGiven: boolean): AuthRefusedError {
  return new AuthRefusedError(
    tokenGiven
      ? `The model server at ${where} refused the API token: pass a valid one (LM Studio: ` +
        `Developer page, API tokens) with --api-token TOKEN or modelserver.api_token`
      : `The model server at ${where} requires an API token: pass it with --api-token TOKEN ` +
        `(or set modelserver.api_token in the user's defaults.json)`,
  );
}

/** Whether an error is the server refusing the credentials (HTTP 401/403, SDK passkey). */
export function isAuthError(err: unknown): boolean {
  return err instanceof AuthRefusedError ||
    (err instanceof UpstreamError && (err.upstreamStatus === 401 || err.upstreamStatus === 403));
}

/** The 502 raised when a stream ends before its final event. */
export function droppedStreamError(where: string, detail: string): UpstreamError {
  return new UpstreamError(`Cannot read the reply of the model server at ${where}: ${detail}`, {
    code: "stream_dropped",
  });
}

/** Options of {@linkcode serverMessageError}. */
export interface ServerMessageOptions {
  /** The server's own code for the error (`type` or `code` of its body). */
  code?: string;
  /** The HTTP status the server answered with. */
  upstreamStatus?: number;
}

/** An error reported by the server in a body or an event; keeps `Model unloaded` recognisable. */
export function serverMessageError(
  message: string,
  options: ServerMessageOptions = {},
): UpstreamError {
  const upstreamStatus = options.upstreamStatus;
  if (UNLOADED_RE.test(message)) return new ModelUnloadedError(message, { upstreamStatus });
  return new UpstreamError(message, { code: options.code ?? "upstream", upstreamStatus });
}

/** Reads `{error:{message,type,code}}`, `{error:"..."}` or `{message}` from a body text. */
export function parseErrorBody(text: string): { message: string; code?: string } | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isPlainObject(body)) return null;
  const err = body.error;
  if (typeof err === "string") return { message: err };
  if (isPlainObject(err) && typeof err.message === "string") {
    const code = typeof err.code === "string"
      ? err.code
      : typeof err.type === "string"
      ? err.type
      : undefined;
    return code === undefined ? { message: err.message } : { message: err.message, code };
  }
  if (typeof body.message === "string") return { message: body.message };
  return null;
}

/** Whether a body is a web page (HTML or XML) rather than a model server's message. */
export function looksLikeMarkup(text: string): boolean {
  return /^\s*<(!doctype|html|head|body|\?xml|[a-z]+[\s>])/i.test(text);
}

/** A non-JSON body as one short line: never markup, never more than 200 characters. */
function plainBodyText(text: string): string {
  if (looksLikeMarkup(text)) {
    return "the server answered with a web page, not a model server's reply";
  }
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || "no message";
}

/**
 * The error for a non-2xx HTTP answer: the server's own message plus `(HTTP <status>)`, an
 * {@linkcode UpstreamError} whose `upstreamStatus` is the server's status.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { httpError, ModelUnloadedError } from "./errors.ts";
 * const err = httpError(400, '{"error":{"message":"bad field"}}');
 * assert.deepEqual([err.message, err.code, err.upstreamStatus], ["bad field (HTTP 400)", "upstream", 400]);
 * assert.ok(httpError(500, '{"error":"Model unloaded"}') instanceof ModelUnloadedError);
 * ```
 */
export function httpError(status: number, bodyText: string): UpstreamError {
  const parsed = parseErrorBody(bodyText);
  const raw = parsed?.message ?? plainBodyText(bodyText);
  return serverMessageError(`${raw} (HTTP ${status})`, {
    upstreamStatus: status,
    code: parsed?.code,
  });
}

/** Whether a fetch/socket error means "connection refused". */
export function isConnectionRefused(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur !== undefined && cur !== null; i++) {
    if (cur instanceof Deno.errors.ConnectionRefused) return true;
    if (/connection refused|ECONNREFUSED/i.test(messageOf(cur))) return true;
    const code = (cur as { code?: unknown }).code;
    if (code === "ECONNREFUSED") return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}
