/**
 * The one body reader: request bodies are capped before and while they are read (413), and JSON
 * bodies are depth-checked before parsing (400). {@linkcode limitBody} guards whole apps, so a
 * handler that reads the body another way is capped too.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError, TooLargeError, UsageError } from "../error.ts";
import { DEFAULT_JSON_DEPTH, JsonDepthError, parseJsonLimited } from "../json_limited.ts";
import { isPlainObject } from "../shared/json_object.ts";
import { assertJsonType } from "./security.ts";

/** The default cap of a request body read by a route: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The cap of any request body of the servers (the largest route, a log export): 8 MiB. */
export const MAX_REQUEST_BODY = 8 * 1024 * 1024;

/** Options of {@linkcode readJson} and {@linkcode readJsonObject}. */
export interface BodyOptions {
  /** Largest body read, in bytes. @default DEFAULT_BODY_LIMIT */
  maxBytes?: number;
  /** Deepest JSON nesting accepted. @default DEFAULT_JSON_DEPTH */
  maxDepth?: number;
}

function tooLarge(maxBytes: number): AppError {
  return new TooLargeError(`Cannot read the request: the body is larger than ${maxBytes} bytes`, {
    code: "body_too_large",
  });
}

/**
 * Reads the body as UTF-8 text, refusing (413) a declared length over `maxBytes` before reading
 * and stopping as soon as more than `maxBytes` arrived.
 */
export async function readBodyText(c: Context, maxBytes = DEFAULT_BODY_LIMIT): Promise<string> {
  await limitBody(maxBytes)(c, () => Promise.resolve());
  return await c.req.text();
}

/**
 * Reads a JSON body (empty is `undefined`). A request carrying a cookie (one a browser may
 * have sent for the user) must declare the body `application/json`: a page elsewhere can post
 * `text/plain` or a form without asking.
 *
 * @throws {TooLargeError} too large, {UsageError} not JSON, nested too deeply (`json_too_deep`)
 * or, with a cookie, not declared JSON (`json_required`).
 */
export async function readJson(c: Context, options: BodyOptions = {}): Promise<unknown> {
  const text = await readBodyText(c, options.maxBytes ?? DEFAULT_BODY_LIMIT);
  if (text.trim() === "") return undefined;
  if (c.req.header("Cookie") !== undefined) assertJsonType(c);
  try {
    return parseJsonLimited(text, options.maxDepth ?? DEFAULT_JSON_DEPTH);
  } catch (err) {
    if (err instanceof JsonDepthError) {
      throw new UsageError(err.message, { code: "json_too_deep" });
    }
    if (err instanceof SyntaxError) {
      throw new UsageError("Invalid JSON body: not valid JSON", { code: "invalid_json" });
    }
    throw err;
  }
}

/**
 * Reads the body as a JSON object; an empty body is `{}`.
 *
 * @throws as {@linkcode readJson}; {UsageError} when the body is not an object.
 */
export async function readJsonObject(
  c: Context,
  options: BodyOptions = {},
): Promise<Record<string, unknown>> {
  const value = await readJson(c, options);
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    throw new UsageError("Invalid JSON body: expected a JSON object", { code: "invalid_json" });
  }
  return value;
}

/**
 * Middleware capping every request body of an app at `maxBytes` (Hono's `bodyLimit()`): a
 * declared length over it is a 413 at once; a body without a length is read up to the cap before
 * the route runs and is a 413 as soon as it passes it.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge(maxBytes);
    },
  });
}
