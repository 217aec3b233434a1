/**
 * Deep merge of settings trees (defaults + stored + update).
 *
 * @module
 */
import type { Settings } from "../plugin.ts";

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Deep-merges plain objects (arrays and other values are replaced).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeSettings } from "./merge.ts";
 * const s = mergeSettings({ a: { b: 1, c: 2 } }, { a: { c: 3 } });
 * assert.equal(JSON.stringify(s), '{"a":{"b":1,"c":3}}');
 * ```
 */
export function mergeSettings(base: Settings, over: Settings): Settings {
  const out: Settings = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    out[key] = isObject(prev) && isObject(value)
      ? mergeSettings(prev, value)
      : structuredClone(value);
  }
  return out;
}
