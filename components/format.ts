/**
 * Number and date formatting shared by pages and islands (browser-safe).
 *
 * @module
 */

/** A number with `digits` decimals, or "–" for null. */
export function fmt(value: unknown, digits = 1): string {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/** An ISO time stamp as `YYYY-MM-DD HH:MM`. */
export function fmtTime(value: unknown): string {
  return typeof value === "string" ? value.slice(0, 16).replace("T", " ") : "–";
}

/** A signed percentage, e.g. `+4.2%`. */
export function fmtPct(value: unknown): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  return `${value > 0 ? "+" : ""}${value.toFixed(1)}%`;
}

/**
 * A parallel round's total output speed with its stream count, e.g. `84.2 ×2`, or "–" when the
 * result has no parallel round (`--n-parallel` 1 or unset).
 */
export function fmtParallel(tokensPerSec: unknown, streams: unknown): string {
  return typeof streams === "number" && streams > 1 && typeof tokensPerSec === "number"
    ? `${fmt(tokensPerSec, 1)} ×${streams}`
    : "–";
}
