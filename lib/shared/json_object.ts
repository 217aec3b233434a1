/**
 * The one test for a JSON object (browser-safe): a plain object, not an array, not null.
 *
 * @module
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/**
 * True for plain objects (not arrays, not null).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPlainObject } from "./json_object.ts";
 * assert.ok(isPlainObject({ a: 1 }) && !isPlainObject([1]) && !isPlainObject(null));
 * ```
 */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
