/**
 * The Temperature ETA's live data, shared by every island of the page (the panel and the
 * top-bar element): the heaters, the display settings and whether the plugin is enabled, as
 * signals fed by one status load per (re)connection and the push socket's `eta_update` and
 * `settings_changed` messages. Browser code.
 *
 * @module
 */
import { effect, type Signal, signal } from "@preact/signals";
import { followPush, pushConnected } from "../../../lib/shared/push.ts";
import {
  applyEtaUpdate,
  applySettingsChanged,
  DEFAULT_UI,
  type HeaterMap,
  heaterMapOf,
  isEtaUpdate,
  loadEtaStatus,
} from "../status_feed.ts";
import { PLUGIN_ID } from "../id.ts";
import type { UiConfig } from "../ui_config.ts";

/** Heaters by name, as the last status and pushes tell. */
export const heaters: Signal<HeaterMap> = signal({});
/** The display settings. */
export const ui: Signal<UiConfig> = signal(DEFAULT_UI);
/** Whether the plugin is enabled. */
export const enabled: Signal<boolean> = signal(true);
/** The algorithm in use ("" until the status arrives). */
export const algorithm: Signal<string> = signal("");
/** Whether a status has been loaded. */
export const loaded: Signal<boolean> = signal(false);
/** The last load failure ("" when none). */
export const loadError: Signal<string> = signal("");

/** Applies one push message of the plugin to the shared signals. */
export function applyEtaPush(data: Record<string, unknown>): void {
  if (isEtaUpdate(data)) heaters.value = applyEtaUpdate(heaters.value, data);
  else if (data.type === "settings_changed") {
    const next = applySettingsChanged(ui.value, data);
    ui.value = next.ui;
    if (next.enabled !== undefined) enabled.value = next.enabled;
    if (next.algorithm !== undefined) algorithm.value = next.algorithm;
  }
}

/** Loads the status into the shared signals. */
export async function reloadEta(): Promise<void> {
  try {
    const s = await loadEtaStatus();
    heaters.value = heaterMapOf(s.heaters);
    ui.value = s.ui;
    enabled.value = s.enabled;
    algorithm.value = s.algorithm;
    loaded.value = true;
    loadError.value = "";
  } catch (err) {
    loadError.value = `Cannot load the ETA status: ${(err as Error).message}`;
  }
}

const listeners = new Set<(data: Record<string, unknown>) => void>();
let stop: (() => void) | null = null;
let followers = 0;

/**
 * Follows the plugin for an island until the returned function is called: the first follower
 * loads the status (again whenever the socket reconnects) and subscribes to the push socket;
 * `onMessage` also gets every raw message (the panel's alerts and graph).
 */
export function followEta(onMessage?: (data: Record<string, unknown>) => void): () => void {
  if (onMessage) listeners.add(onMessage);
  if (!stop) {
    const unfollow = followPush(PLUGIN_ID, (data) => {
      applyEtaPush(data);
      for (const fn of [...listeners]) fn(data);
    });
    reloadEta();
    // Pushes sent before the socket (re)opened are missed: load the status at every open too.
    let wasOpen = pushConnected.peek();
    const reconnects = effect(() => {
      const open = pushConnected.value;
      if (open && !wasOpen) reloadEta();
      wasOpen = open;
    });
    stop = () => {
      reconnects();
      unfollow();
    };
  }
  followers++;
  return () => {
    if (onMessage) listeners.delete(onMessage);
    if (--followers === 0) {
      stop?.();
      stop = null;
    }
  };
}
