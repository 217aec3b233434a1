/**
 * Text forms of an uptime in seconds: full (`1d 1h 1m 1s`), dhm (always `<d>d <h>h <m>m`, the
 * specification's form: `0d 0h 8m`), dh, d and short (`2d3h15m`).
 *
 * @module
 */

/** Display formats the widget offers. */
export const DISPLAY_FORMATS = ["full", "dhm", "dh", "d", "short"] as const;

/** One of {@linkcode DISPLAY_FORMATS}. */
export type DisplayFormat = typeof DISPLAY_FORMATS[number];

/** Every text form of one uptime. */
export interface UptimeTexts {
  full: string;
  dhm: string;
  dh: string;
  d: string;
  short: string;
}

function parts(seconds: number) {
  const s = Math.max(0, Math.trunc(seconds));
  return {
    d: Math.floor(s / 86400),
    h: Math.floor((s % 86400) / 3600),
    m: Math.floor((s % 3600) / 60),
    s: s % 60,
  };
}

/**
 * Formats an uptime in every form (seconds are truncated first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatUptime } from "./format.ts";
 * const t = formatUptime(90061);
 * assert.ok(t.full === "1d 1h 1m 1s" && t.dhm === "1d 1h 1m" && t.short === "1d1h1m");
 * assert.equal(formatUptime(480).dhm, "0d 0h 8m");
 * ```
 */
export function formatUptime(seconds: number): UptimeTexts {
  const { d, h, m, s } = parts(seconds);
  const full: string[] = [];
  if (d > 0) full.push(`${d}d`);
  if (d > 0 || h > 0) full.push(`${h}h`);
  if (d > 0 || h > 0 || m > 0) full.push(`${m}m`);
  full.push(`${s}s`);
  return {
    full: full.join(" "),
    dhm: `${d}d ${h}h ${m}m`,
    dh: d > 0 ? `${d}d ${h}h` : `${h}h`,
    d: `${d}d`,
    short: d > 0 ? `${d}d${h}h${m}m` : h > 0 ? `${h}h${m}m` : `${m}m`,
  };
}
