/**
 * The "target reached" and "cooled down" events of a heater, with the sound and notification the
 * panel should play or show according to the settings. Pure.
 *
 * @module
 */
import type { StateChange } from "./calculator.ts";
import type { TempEtaSettings } from "./schema.ts";
import { soundUrl } from "./sounds.ts";

/** The body of an `eta_alert` push message. */
export interface EtaAlert {
  heater: string;
  event: "heating_done" | "cooling_done";
  /** Notification text, e.g. `Tool0: reached 210°C`. */
  message: string;
  /** True when the panel should show a notification. */
  notification: boolean;
  /** The sound to play, or null when the event's sound is off. */
  sound_url: string | null;
  timestamp: number;
}

/** `tool0` → `Tool0`, `bed` → `Bed`. */
export function heaterLabel(heater: string): string {
  return heater.charAt(0).toUpperCase() + heater.slice(1);
}

function degrees(value: number | null): string {
  return value === null ? "" : `${Math.round(value * 10) / 10}°C`;
}

/**
 * The alert of a state change: heating ended at the target (`heating_done`) or cooling ended at
 * the cooling target (`cooling_done`). Null when the change is no such event, or when both its
 * sound and its notification are off.
 */
export function alertOf(change: StateChange, s: TempEtaSettings): EtaAlert | null {
  const label = heaterLabel(change.heater);
  if (change.previous_kind === "heating" && change.state === "at_target") {
    const sound = s.heating_sound_enabled ? soundUrl("heating", s.heating_sound_file) : null;
    if (!sound && !s.heating_notification_enabled) return null;
    return {
      heater: change.heater,
      event: "heating_done",
      message: `${label}: reached ${degrees(change.target)}`,
      notification: s.heating_notification_enabled,
      sound_url: sound,
      timestamp: change.timestamp,
    };
  }
  if (change.previous_kind === "cooling" && change.state === "cooled_down") {
    const sound = s.cooling_sound_enabled ? soundUrl("cooling", s.cooling_sound_file) : null;
    if (!sound && !s.cooling_notification_enabled) return null;
    return {
      heater: change.heater,
      event: "cooling_done",
      message: `${label}: cooled down to ${degrees(change.actual)}`,
      notification: s.cooling_notification_enabled,
      sound_url: sound,
      timestamp: change.timestamp,
    };
  }
  return null;
}
