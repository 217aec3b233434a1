/**
 * The navbar uptime widget's rules as pure functions (browser-safe, no Deno APIs): which text
 * to show, when it is hidden, compact alternation, the tooltip and the next poll delay.
 *
 * @module
 */
import { PLUGIN_ID } from "./id.ts";

/** The uptime endpoint (`GET /api/plugin/<id>`), polled by the widget. */
export const API_BASE = `/api/plugin/${PLUGIN_ID}`;

/** The fields of the uptime payload the widget reads. */
export interface UptimeView {
  uptime?: string;
  uptime_dhm?: string;
  uptime_dh?: string;
  uptime_d?: string;
  uptime_short?: string;
  host_uptime?: string;
  host_uptime_dhm?: string;
  host_uptime_dh?: string;
  host_uptime_d?: string;
  host_uptime_short?: string;
  seconds?: number | null;
  host_seconds?: number | null;
  display_format?: string;
  poll_interval_seconds?: number;
  uptime_available?: boolean;
  uptime_note?: string | null;
  show_system_uptime?: boolean;
  show_host_uptime?: boolean;
  compact_display?: boolean;
  compact_toggle_interval_seconds?: number;
}

/** What the widget renders. */
export interface WidgetState {
  /** False when both uptimes are switched off (polling goes on). */
  visible: boolean;
  text: string;
  tooltip: string;
  /** Whether the system uptime is in the unknown state. */
  unknown: boolean;
}

/** Retry delay after a failed poll. */
export const ERROR_RETRY_MS = 5000;

const SUFFIX: Record<string, string> = {
  full: "",
  dhm: "_dhm",
  dh: "_dh",
  d: "_d",
  short: "_short",
};

function pick(view: UptimeView, prefix: "" | "host_"): string {
  const suffix = SUFFIX[view.display_format ?? "full"] ?? "";
  const v = view as Record<string, unknown>;
  const text = v[`${prefix}uptime${suffix}`] ?? v[`${prefix}uptime`];
  return typeof text === "string" ? text : "unknown";
}

/** Milliseconds until the next poll: the payload's interval (min 1 s), 5 s when unknown. */
export function nextPollMs(view: UptimeView | null): number {
  const s = view?.poll_interval_seconds;
  return typeof s === "number" && Number.isFinite(s) ? Math.max(1, s) * 1000 : ERROR_RETRY_MS;
}

/** Interval of the compact alternation in ms (5..60 s, else 5 s). */
export function compactToggleMs(view: UptimeView): number {
  const s = view.compact_toggle_interval_seconds;
  return typeof s === "number" && s >= 5 && s <= 60 ? s * 1000 : 5000;
}

/** Whether compact mode is active: `compact_display` and both uptimes shown. */
export function isCompact(view: UptimeView): boolean {
  return view.compact_display === true && view.show_system_uptime !== false &&
    view.show_host_uptime !== false;
}

/**
 * The widget's state for a payload; `phase` picks the half shown in compact mode (even:
 * system, odd: host); `now` (ms) dates the tooltip's start times.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { widgetState } from "./widget.ts";
 * const s = widgetState({ uptime: "1h 0m 0s", host_uptime: "5m 0s", seconds: 3600, host_seconds: 300 }, 0, 0);
 * assert.equal(s.text, "Uptime: System 1h 0m 0s | Host 5m 0s");
 * ```
 */
export function widgetState(view: UptimeView, phase: number, now: number): WidgetState {
  const showSystem = view.show_system_uptime !== false;
  const showHost = view.show_host_uptime !== false;
  const unknown = view.uptime_available === false;
  const system = unknown ? "unknown" : pick(view, "");
  const host = pick(view, "host_");
  const parts: string[] = [];
  if (isCompact(view)) parts.push(phase % 2 === 0 ? `System ${system}` : `Host ${host}`);
  else {
    if (showSystem) parts.push(`System ${system}`);
    if (showHost) parts.push(`Host ${host}`);
  }
  const tip: string[] = [];
  const started = (s: number | null | undefined) =>
    typeof s === "number" ? new Date(now - s * 1000).toLocaleString() : "unknown";
  if (showSystem) tip.push(`System started: ${unknown ? "unknown" : started(view.seconds)}`);
  if (showHost) tip.push(`Host started: ${started(view.host_seconds)}`);
  if (unknown && view.uptime_note) tip.push(view.uptime_note);
  return {
    visible: showSystem || showHost,
    text: parts.length > 0 ? `Uptime: ${parts.join(" | ")}` : "",
    tooltip: tip.join("\n"),
    unknown,
  };
}
