/**
 * Links between the dashboard's views (browser-safe).
 *
 * @module
 */

/**
 * The Comparison view of a model (`publisher/model`) or of one variant (`publisher/model@quant`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparisonHref } from "./links.ts";
 * assert.equal(comparisonHref("qwen/qwen3-4b@q4_k_m"), "/comparison?model=qwen%2Fqwen3-4b%40q4_k_m");
 * ```
 */
export function comparisonHref(model: string): string {
  return `/comparison?model=${encodeURIComponent(model)}`;
}
