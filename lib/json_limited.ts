/**
 * JSON whose nesting is bounded: a linear scan refuses text nested deeper than a limit before
 * `JSON.parse` (or any recursive walk of the value) can run out of stack. Used for request
 * bodies and for the configuration and preset files.
 *
 * @module
 */

/** The nesting depth allowed by default: far beyond any legitimate body or file. */
export const DEFAULT_JSON_DEPTH = 64;

/**
 * The deepest nesting of objects and arrays in JSON text, counting only brackets outside
 * strings; stops counting once `limit` is exceeded (returns `limit + 1`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonDepth } from "./json_limited.ts";
 * assert.equal(jsonDepth('{"a": [1, "[[["]}'), 2);
 * ```
 */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return max;
}

/** Thrown by {@linkcode parseJsonLimited} for text nested too deeply. */
export class JsonDepthError extends RangeError {
  constructor(readonly limit: number) {
    super(`Cannot read JSON nested deeper than ${limit} levels`);
    this.name = "JsonDepthError";
  }
}

/**
 * `JSON.parse` after the depth check.
 *
 * @throws {JsonDepthError} when nested deeper than `maxDepth`.
 * @throws {SyntaxError} when the text is not JSON.
 */
export function parseJsonLimited(text: string, maxDepth = DEFAULT_JSON_DEPTH): unknown {
  if (jsonDepth(text, maxDepth) > maxDepth) throw new JsonDepthError(maxDepth);
  return JSON.parse(text);
}
