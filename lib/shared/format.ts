/**
 * Number and date formatting of the dashboard (pages and islands) and the reports (HTML and
 * PDF), browser-safe: the same value reads the same everywhere, a missing one as "–".
 *
 * @module
 */

/**
 * A number with `digits` decimals, or `missing` ("–"; the terminal's tables use "-") when missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fixed } from "./format.ts";
 * assert.equal(fixed(4.25, 1), "4.3");
 * assert.equal(fixed(null), "–");
 * ```
 */
export function fixed(value: unknown, digits = 1, missing = "–"): string {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : missing;
}

/**
 * A signed percentage with one decimal (`+4.2%`, `-4.2%`), or "–" when missing. A change that
 * rounds to zero is `0.0%`, without a sign: neither faster nor slower.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signedPercent } from "./format.ts";
 * assert.deepEqual([4.2, -4.2, 0, -0.04].map(signedPercent), ["+4.2%", "-4.2%", "0.0%", "0.0%"]);
 * ```
 */
export function signedPercent(value: unknown): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  const text = Math.abs(value).toFixed(1);
  const sign = Number(text) === 0 ? "" : value > 0 ? "+" : "-";
  return `${sign}${text}%`;
}

/** An ISO time stamp as `YYYY-MM-DD HH:MM` (the time as written, UTC for ours), or "–". */
export function dateTime(value: unknown): string {
  return typeof value === "string" ? value.slice(0, 16).replace("T", " ") : "–";
}

/**
 * A parallel round's total output speed with its stream count, e.g. `84.2 ×2`, or "–" when the
 * result has no parallel round (`--n-parallel` 1 or unset).
 */
export function parallelSpeed(tokensPerSec: unknown, streams: unknown): string {
  return typeof streams === "number" && streams > 1 && typeof tokensPerSec === "number"
    ? `${fixed(tokensPerSec, 1)} ×${streams}`
    : "–";
}
