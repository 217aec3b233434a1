/**
 * Text of intervals, deltas and flags shared by the HTML and PDF reports (numbers, percentages
 * and dates: `lib/shared/format.ts`, the dashboard's too).
 *
 * @module
 */
import { fixed, signedPercent } from "../shared/format.ts";
import type { MetricDelta } from "./model.ts";

/**
 * A 95% interval as `lo–hi`; a lower end put at 0 (the t-interval reached below zero, see
 * lib/stats.ts) is marked `0†`; "–" when missing.
 */
export function ciText(
  lo: number | null | undefined,
  hi: number | null | undefined,
  digits = 1,
): string {
  if (typeof lo !== "number" || typeof hi !== "number") return "–";
  return `${ciClamped(lo, hi) ? "0†" : fixed(lo, digits)}–${fixed(hi, digits)}`;
}

/** Whether an interval's lower end was put at 0: exactly 0 below a positive upper end. */
export function ciClamped(lo: number | null | undefined, hi: number | null | undefined): boolean {
  return lo === 0 && typeof hi === "number" && hi > 0;
}

/** What † means beside an interval. */
export const CI_CLAMPED_NOTE =
  "† The 95% interval (Student's t) of these few, scattered runs reached below zero; its lower " +
  "end is shown at 0, the smallest possible value. Measure more runs for a tighter interval.";

/** A delta with its significance: `+4.2% (p=0.012, significant)`. */
export function deltaText(d: MetricDelta | null | undefined): string {
  if (!d) return "–";
  if (d.p_value === null) return `${signedPercent(d.delta_pct)} (too few runs to test)`;
  const p = d.p_value < 0.001 ? "p<0.001" : `p=${d.p_value.toFixed(3)}`;
  return `${signedPercent(d.delta_pct)} (${p}, ${
    d.significant ? "significant" : "not significant"
  })`;
}

/** A short delta for table cells: `+4.2% *` when significant. */
export function deltaCell(d: MetricDelta | null | undefined): string {
  if (!d) return "–";
  return `${signedPercent(d.delta_pct)}${d.significant ? " *" : ""}`;
}

/** Display text of a boolean column. */
export function yesNo(value: unknown): string {
  return value ? "yes" : "no";
}

/**
 * The runs of a result as the reports show them: the good ones, and for a partial result the
 * failed ones beside them (a partial result is never shown as a clean one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runsText } from "./format.ts";
 * assert.equal(runsText({ status: "ok", runs_ok: 5 }), "5");
 * assert.equal(runsText({ status: "partial", runs_ok: 2, runs_failed: 3 }), "2 + 3 failed (partial)");
 * ```
 */
export function runsText(
  row: { status?: unknown; runs_ok?: unknown; runs_failed?: unknown },
): string {
  const ok = typeof row.runs_ok === "number" ? row.runs_ok : 0;
  const failed = typeof row.runs_failed === "number" ? row.runs_failed : 0;
  return row.status === "partial" || failed > 0 ? `${ok} + ${failed} failed (partial)` : `${ok}`;
}
