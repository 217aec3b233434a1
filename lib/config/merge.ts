/**
 * The one deep merge of layered values: configuration layers (built-in defaults → project file
 * → user file → command line) and plugin settings (defaults → stored → update) merge the same way.
 *
 * @module
 */
import { isPlainObject, type JsonObject } from "../shared/json_object.ts";

export { isPlainObject, type JsonObject };

/**
 * Merges `upper` over `lower` recursively: objects merge key by key, arrays and scalars replace,
 * and a `null` (or `undefined`) in `upper` is skipped so the lower value is kept (seed:
 * "Configuration layers"; the same rule for settings updates). Neither input is modified.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deepMerge } from "./merge.ts";
 * const merged = deepMerge({ a: { b: 1, c: 2 }, d: [1, 2] }, { a: { b: null, c: 3 }, d: [3] });
 * assert.deepEqual(merged, { a: { b: 1, c: 3 }, d: [3] });
 * ```
 */
export function deepMerge<T extends object>(lower: T, upper: object): T {
  const out: JsonObject = structuredClone(lower) as JsonObject;
  for (const [key, value] of Object.entries(upper)) {
    if (value === null || value === undefined) continue;
    const below = out[key];
    out[key] = isPlainObject(below) && isPlainObject(value)
      ? deepMerge(below, value)
      : structuredClone(value);
  }
  return out as T;
}
