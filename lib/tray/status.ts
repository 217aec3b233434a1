/**
 * The tray's pure state machine (seed: "States and transitions"): the dashboard's benchmark
 * status, or the error state when `/api/status` cannot be read, decides the icon colour and which
 * controls are enabled.
 *
 * | State     | Icon   | Enabled                 |
 * |-----------|--------|-------------------------|
 * | `idle`    | gray   | Start                   |
 * | `running` | green  | Pause, Stop             |
 * | `paused`  | yellow | Pause (as Resume), Stop |
 * | error     | red    | Start                   |
 *
 * @module
 */

/** A benchmark status reported by the dashboard. */
export type BenchStatus = "idle" | "running" | "paused";

/** What the tray shows: a benchmark status, or `error` when the status endpoint is unreachable. */
export type TrayState = BenchStatus | "error";

/** Icon colours, one per state. */
export type IconColor = "gray" | "green" | "yellow" | "red";

/** The tray's appearance in one state. */
export interface TrayView {
  state: TrayState;
  icon: IconColor;
  /** Tooltip and status line, e.g. `localbench: running`. */
  tooltip: string;
  start: boolean;
  pause: boolean;
  /** Title of the pause item: `Resume` while paused, `Pause` otherwise. */
  pauseLabel: "Pause" | "Resume";
  stop: boolean;
}

const ICONS: Record<TrayState, IconColor> = {
  idle: "gray",
  running: "green",
  paused: "yellow",
  error: "red",
};

/**
 * The view of a state, exactly as the seed's table.
 *
 * @example Running
 * ```ts
 * import assert from "node:assert/strict";
 * import { viewOf } from "./status.ts";
 * const v = viewOf("running");
 * assert.ok(v.icon === "green" && v.pause && v.stop && !v.start);
 * ```
 */
export function viewOf(state: TrayState): TrayView {
  const active = state === "running" || state === "paused";
  return {
    state,
    icon: ICONS[state],
    tooltip: state === "error" ? "localbench: dashboard unreachable" : `localbench: ${state}`,
    start: !active,
    pause: active,
    pauseLabel: state === "paused" ? "Resume" : "Pause",
    stop: active,
  };
}

/**
 * The state a `/api/status` body stands for: its `status` field when that is `idle`, `running`
 * or `paused`; `error` for anything else (a body the tray cannot understand is treated like an
 * unreachable endpoint).
 */
export function stateOfBody(body: unknown): TrayState {
  if (typeof body !== "object" || body === null) return "error";
  const status = (body as { status?: unknown }).status;
  return status === "idle" || status === "running" || status === "paused" ? status : "error";
}
