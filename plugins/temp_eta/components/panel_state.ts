/**
 * The panel's own state, next to the shared live data: the graph history, the toasts and the
 * notification permission, and what an `eta_update` or `eta_alert` does to them (play the sound,
 * notify). Browser code.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import {
  alertAction,
  type HistoryPoint,
  isEtaAlert,
  isEtaUpdate,
  pushHistory,
} from "../status_feed.ts";
import { showToast, type Toast } from "./Toasts.tsx";

/** The browser's notification permission (`unsupported` without the API). */
export function permissionState(): "granted" | "denied" | "default" | "unsupported" {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** The state of one panel. */
export interface PanelState {
  history: Signal<Record<string, HistoryPoint[]>>;
  toasts: Signal<Toast[]>;
  permission: Signal<ReturnType<typeof permissionState>>;
  /** The page's audio element (set by the panel once rendered). */
  audio: { current: HTMLAudioElement | null };
  /** Handles one push message of the plugin. */
  onMessage(data: Record<string, unknown>): void;
  /** Plays a sound. */
  play(url: string): void;
}

/** Creates a panel's state; `graphSeconds` is the history kept. */
export function createPanelState(graphSeconds: number): PanelState {
  const state: PanelState = {
    history: signal({}),
    toasts: signal([]),
    permission: signal(permissionState()),
    audio: { current: null },
    play(url) {
      const audio = state.audio.current;
      if (!audio) return;
      audio.src = url;
      audio.dataset.played = url;
      audio.play().catch(() => {});
    },
    onMessage(data) {
      if (isEtaUpdate(data)) {
        const point: HistoryPoint = {
          t: Date.now(),
          actual: Number(data.actual),
          target: typeof data.target === "number" ? data.target : null,
          eta: typeof data.eta_seconds === "number" ? data.eta_seconds : null,
        };
        state.history.value = pushHistory(
          state.history.value,
          data.heater,
          point,
          graphSeconds * 1000,
        );
      } else if (isEtaAlert(data)) {
        const action = alertAction(data, permissionState());
        if (action.sound) state.play(action.sound);
        if (action.notify === "system") {
          new Notification(action.title, {
            body: data.message,
            tag: `${data.heater}-${data.event}`,
          });
        } else if (action.notify === "toast") showToast(state.toasts, action.title, data.message);
      }
    },
  };
  return state;
}
