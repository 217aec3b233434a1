/**
 * Display text of an ETA: the `time_format` shapes, the rate, the progress percentage, and the
 * words for the states without a number. Pure functions.
 *
 * @module
 */
import type { TempEtaSettings } from "./schema.ts";

/** A `time_format` value. */
export type TimeFormat = TempEtaSettings["time_format"];

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/**
 * Formats seconds: `seconds` → `<n>s`, `minutes` → `<n.n>m`, `hours` → `<n.n>h`,
 * `hms` → `HH:MM:SS`; `auto` takes seconds below a minute, minutes below an hour, else hours.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatEta } from "./format.ts";
 * assert.equal(formatEta(90, "minutes"), "1.5m");
 * assert.equal(formatEta(5400, "hms"), "01:30:00");
 * ```
 */
export function formatEta(seconds: number, format: TimeFormat): string {
  const s = Math.max(0, seconds);
  switch (format) {
    case "seconds":
      return `${Math.round(s)}s`;
    case "minutes":
      return `${(s / 60).toFixed(1)}m`;
    case "hours":
      return `${(s / 3600).toFixed(1)}h`;
    case "hms": {
      const total = Math.round(s);
      const h = Math.floor(total / 3600);
      return `${pad(h)}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
    }
    case "auto":
      if (Math.round(s) < 60) return formatEta(s, "seconds");
      return formatEta(s, s < 3600 ? "minutes" : "hours");
  }
}

/**
 * Formats a rate as `+<rate>°C/s` (two decimals; `-` when cooling).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRate } from "./format.ts";
 * assert.equal(formatRate(0.5), "+0.50°C/s");
 * assert.equal(formatRate(-1.234), "-1.23°C/s");
 * ```
 */
export function formatRate(rate: number): string {
  const fixed = Math.abs(rate).toFixed(2);
  const sign = rate < 0 && fixed !== "0.00" ? "-" : "+";
  return `${sign}${fixed}°C/s`;
}

/** Formats a progress fraction in percent as `<n>%`. */
export function formatPercentage(percent: number): string {
  return `${Math.round(Math.min(100, Math.max(0, percent)))}%`;
}

/** What the display needs of a heater's status. */
export interface DisplayInput {
  state: string;
  eta_seconds: number | null;
  rate: number | null;
  progress: number | null;
}

/** The display texts of one heater, shaped by `time_format`, `show_rate`, `show_percentage`. */
export interface DisplayText {
  /** The ETA (`1.5m`), `stalled`, `calculating`, or null when there is nothing to show. */
  eta: string | null;
  rate?: string;
  percentage?: string;
}

/** Builds the display texts of a heater from its status and the settings. */
export function displayText(
  status: DisplayInput,
  s: Pick<TempEtaSettings, "time_format" | "show_rate" | "show_percentage">,
): DisplayText {
  const eta = status.eta_seconds !== null
    ? formatEta(status.eta_seconds, s.time_format)
    : status.state === "stalled" || status.state === "calculating"
    ? status.state
    : null;
  const out: DisplayText = { eta };
  if (s.show_rate && status.rate !== null && eta !== null) out.rate = formatRate(status.rate);
  if (s.show_percentage && status.progress !== null && eta !== null) {
    out.percentage = formatPercentage(status.progress);
  }
  return out;
}
