/**
 * Number and text formatting shared by the HTML and PDF reports.
 *
 * @module
 */
import type { MetricDelta } from "./model.ts";

/** A number with fixed digits, or "–" when missing. */
export function fixed(value: number | null | undefined, digits = 1): string {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/** A signed percentage (`+4.2%`), or "–". */
export function percent(value: number | null | undefined): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  return `${value >= 0 ? "+" : ""}${value.toFixed(1)}%`;
}

/** A delta with its significance: `+4.2% (p=0.012, significant)`. */
export function deltaText(d: MetricDelta | null | undefined): string {
  if (!d) return "–";
  if (d.p_value === null) return `${percent(d.delta_pct)} (too few runs to test)`;
  const p = d.p_value < 0.001 ? "p<0.001" : `p=${d.p_value.toFixed(3)}`;
  return `${percent(d.delta_pct)} (${p}, ${d.significant ? "significant" : "not significant"})`;
}

/** A short delta for table cells: `+4.2% *` when significant. */
export function deltaCell(d: MetricDelta | null | undefined): string {
  if (!d) return "–";
  return `${percent(d.delta_pct)}${d.significant ? " *" : ""}`;
}

/** Display text of a boolean column. */
export function yesNo(value: unknown): string {
  return value ? "yes" : "no";
}

/** A date-time as `YYYY-MM-DD HH:MM` (UTC, from an ISO string). */
export function when(iso: unknown): string {
  return typeof iso === "string" ? iso.replace("T", " ").slice(0, 16) : "–";
}
