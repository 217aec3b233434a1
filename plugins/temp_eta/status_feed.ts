/**
 * Browser-side helpers of the Temperature ETA panel, navbar and sidebar elements (no Deno APIs):
 * the heater map fed by `GET /api/plugin/<id>` and the `eta_update` push messages, the
 * display order, the graph history buffer and the choice between a system notification and an
 * in-page toast.
 *
 * @module
 */
import type { DisplayText } from "./format.ts";
import type { EtaState, HeaterStatus } from "./status.ts";
import { PLUGIN_ID } from "./id.ts";
import type { UiConfig } from "./ui_config.ts";
import { isPlainObject } from "../../lib/shared/json_object.ts";

/** The status and command route (`/api/plugin/<id>`). */
export const ETA_API = `/api/plugin/${PLUGIN_ID}`;

/** A heater as the panel keeps it: the status with its display texts. */
export type HeaterInfo = HeaterStatus & { display: DisplayText };

/** What the browser reads from `GET /api/plugin/<id>`. */
export interface EtaStatus {
  enabled: boolean;
  /** The algorithm in use (`linear` or `exponential`). */
  algorithm: string;
  time_format: string;
  heaters: HeaterInfo[];
  ui: UiConfig;
}

/** Heaters by name. */
export type HeaterMap = Record<string, HeaterInfo>;

/** The default display settings (the plugin's defaults) until the status arrives. */
export const DEFAULT_UI: UiConfig = {
  show_in_graph: true,
  show_in_sidebar: true,
  show_in_navbar: false,
  show_rate: true,
  show_percentage: false,
  heating_sound_url: null,
  cooling_sound_url: null,
};

/** Whether a push `data` is a usable `eta_update`. */
export function isEtaUpdate(data: Record<string, unknown>): data is Record<string, unknown> & {
  type: "eta_update";
  heater: string;
} {
  return data.type === "eta_update" && typeof data.heater === "string" &&
    typeof data.actual === "number";
}

/** The heater map after one `eta_update` push message. */
export function applyEtaUpdate(heaters: HeaterMap, data: Record<string, unknown>): HeaterMap {
  if (!isEtaUpdate(data)) return heaters;
  const { type: _type, ...rest } = data;
  const info = rest as unknown as HeaterInfo;
  return { ...heaters, [data.heater]: { ...info, display: info.display ?? { eta: null } } };
}

/** The heater map of a status body. */
export function heaterMapOf(list: readonly HeaterInfo[]): HeaterMap {
  const map: HeaterMap = {};
  for (const h of list) map[h.heater] = h;
  return map;
}

function rank(name: string): [number, number] {
  const tool = /^tool(\d+)$/.exec(name);
  if (tool) return [0, Number(tool[1])];
  if (name === "bed") return [1, 0];
  if (name === "chamber") return [2, 0];
  return [3, 0];
}

/** Display order: tools by index, then bed, then chamber, then anything else by name. */
export function orderHeaters(list: readonly HeaterInfo[]): HeaterInfo[] {
  return [...list].sort((a, b) => {
    const [ga, ia] = rank(a.heater);
    const [gb, ib] = rank(b.heater);
    return ga - gb || ia - ib || a.heater.localeCompare(b.heater);
  });
}

/** `tool0` → `Tool0`, `bed` → `Bed`. */
export function heaterName(heater: string): string {
  return heater.charAt(0).toUpperCase() + heater.slice(1);
}

/** The word shown for a state. */
export const STATE_TEXT: Record<EtaState, string> = {
  heating: "heating",
  cooling: "cooling",
  stalled: "stalled",
  calculating: "calculating",
  at_target: "at target",
  cooled_down: "cooled down",
  idle: "idle",
};

/**
 * `<actual> / <goal>°C` (the goal is the cooling target while cooling), or `<actual>°C, off`
 * when the heater has no goal.
 */
export function tempText(
  h: Pick<HeaterInfo, "actual" | "target" | "cooling_target" | "state">,
): string {
  const round = (n: number) => (Math.round(n * 10) / 10).toFixed(1);
  const goal = h.state === "cooling" ? h.cooling_target : h.target;
  return goal === null ? `${round(h.actual)}°C, off` : `${round(h.actual)} / ${round(goal)}°C`;
}

/** Whether a heater's history is worth a graph line: it had a target or an ETA. */
export function isActiveHistory(points: readonly HistoryPoint[]): boolean {
  return points.some((p) => (p.target ?? 0) > 0 || p.eta !== null);
}

/** The heaters the navbar shows: those with an ETA, stalled or calculating text. */
export function navbarHeaters(heaters: HeaterMap): HeaterInfo[] {
  return orderHeaters(Object.values(heaters)).filter((h) => h.display?.eta);
}

/** One point of the graph. */
export interface HistoryPoint {
  /** Epoch milliseconds. */
  t: number;
  actual: number;
  target: number | null;
  /** Seconds, null when none. */
  eta: number | null;
}

/** Default graph window in milliseconds. */
export const GRAPH_WINDOW_MS = 180_000;
/** Hard cap of points per heater. */
export const GRAPH_MAX_POINTS = 2000;

/** Appends a point to a heater's history, pruned to `windowMs` before the newest point. */
export function pushHistory(
  history: Record<string, HistoryPoint[]>,
  heater: string,
  point: HistoryPoint,
  windowMs = GRAPH_WINDOW_MS,
): Record<string, HistoryPoint[]> {
  const list = [...(history[heater] ?? []), point]
    .filter((p) => p.t >= point.t - windowMs)
    .slice(-GRAPH_MAX_POINTS);
  return { ...history, [heater]: list };
}

/** The body of an `eta_alert` push message. */
export interface AlertData {
  heater: string;
  event: "heating_done" | "cooling_done";
  message: string;
  notification: boolean;
  sound_url: string | null;
}

/** Whether a push `data` is an `eta_alert`. */
export function isEtaAlert(
  data: Record<string, unknown>,
): data is Record<string, unknown> & AlertData {
  return data.type === "eta_alert" && typeof data.heater === "string" &&
    typeof data.message === "string";
}

/** How the panel reacts to an alert. */
export interface AlertAction {
  sound: string | null;
  /** `system` uses the Notification API, `toast` an in-page message, null nothing. */
  notify: "system" | "toast" | null;
  title: string;
}

/** Chooses the sound and the notification kind of an alert for a browser permission state. */
export function alertAction(
  alert: AlertData,
  permission: "granted" | "denied" | "default" | "unsupported",
): AlertAction {
  return {
    sound: alert.sound_url,
    notify: alert.notification ? (permission === "granted" ? "system" : "toast") : null,
    title: alert.event === "heating_done" ? "Target reached" : "Cooldown finished",
  };
}

/** Merges the `ui` settings of a `settings_changed` push message. */
export function applySettingsChanged(
  ui: UiConfig,
  data: Record<string, unknown>,
): { ui: UiConfig; enabled?: boolean; algorithm?: string } {
  if (data.type !== "settings_changed") return { ui };
  const next = isPlainObject(data.ui) ? { ...ui, ...(data.ui as Partial<UiConfig>) } : ui;
  return {
    ui: next,
    ...(typeof data.enabled === "boolean" ? { enabled: data.enabled } : {}),
    ...(typeof data.algorithm === "string" ? { algorithm: data.algorithm } : {}),
  };
}

/** Loads the status; throws with the server's text on failure. */
export async function loadEtaStatus(fetcher: typeof fetch = fetch): Promise<EtaStatus> {
  const res = await fetcher(ETA_API, { credentials: "same-origin" });
  if (!res.ok) {
    const body = await res.json().catch(() => ({})) as { error?: unknown };
    throw new Error(typeof body.error === "string" ? body.error : `HTTP ${res.status}`);
  }
  return await res.json() as EtaStatus;
}
