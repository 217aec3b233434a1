/**
 * Port normalisation (DECISIONS.md "Benchmark").
 *
 * @module
 */

/** The model server's default ports. */
export const DEFAULT_PORTS: readonly number[] = [1234, 1235];

function asPort(value: unknown): number | null {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 1 && value <= 65535 ? value : null;
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (!/^\d{1,5}$/.test(text)) return null;
    return asPort(Number(text));
  }
  return null;
}

/**
 * Normalises a `ports` value: not an array → the defaults; each element kept when it is an integer
 * or a string of digits (trimmed) within 1..65535; duplicates dropped keeping the first; empty →
 * the defaults.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalisePorts } from "./ports.ts";
 * assert.equal(normalisePorts([" 8080 ", 8080, "x", 70000]).join(), "8080");
 * ```
 */
export function normalisePorts(value: unknown): number[] {
  if (!Array.isArray(value)) return [...DEFAULT_PORTS];
  const out: number[] = [];
  for (const item of value) {
    const port = asPort(item);
    if (port !== null && !out.includes(port)) out.push(port);
  }
  return out.length > 0 ? out : [...DEFAULT_PORTS];
}
