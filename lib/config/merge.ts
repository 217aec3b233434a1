/**
 * Deep merge of configuration layers.
 *
 * @module
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for plain objects (not arrays, not null). */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Merges `upper` over `lower` recursively: objects merge key by key, arrays and scalars replace,
 * and a `null` in `upper` is skipped so the lower value is kept. Neither input is modified.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deepMerge } from "./merge.ts";
 * const merged = deepMerge({ a: { b: 1, c: 2 } }, { a: { b: null, c: 3 } });
 * assert.equal(JSON.stringify(merged), '{"a":{"b":1,"c":3}}');
 * ```
 */
export function deepMerge<T extends object>(lower: T, upper: object): T {
  const out = structuredClone(lower) as JsonObject;
  for (const [key, value] of Object.entries(upper)) {
    if (value === null || value === undefined) continue;
    const below = out[key];
    out[key] = isPlainObject(below) && isPlainObject(value)
      ? deepMerge(below, value)
      : structuredClone(value);
  }
  return out as T;
}
