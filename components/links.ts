/**
 * Links between the dashboard's views (browser-safe).
 *
 * @module
 */

/**
 * The Comparison view of a model (`publisher/model`) or of one variant (`publisher/model@quant`),
 * optionally of one machine's lines (its id, or `unknown` for results without a machine).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparisonHref } from "./links.ts";
 * assert.equal(comparisonHref("qwen/qwen3-4b@q4_k_m"), "/comparison?model=qwen%2Fqwen3-4b%40q4_k_m");
 * assert.equal(comparisonHref("m", "unknown"), "/comparison?model=m&machine=unknown");
 * ```
 */
export function comparisonHref(model: string, machine?: string | null): string {
  const base = `/comparison?model=${encodeURIComponent(model)}`;
  return machine ? `${base}&machine=${encodeURIComponent(machine)}` : base;
}
