/**
 * Settings of the uptime plugin: defaults, ranges and validation.
 *
 * @module
 */
import type { Settings } from "../../lib/host/plugin.ts";
import {
  rejectUnknownSettings,
  settingBool,
  settingEnum,
  settingInt,
} from "../../lib/host/settings/validate.ts";
import { DISPLAY_FORMATS, type DisplayFormat } from "./format.ts";

/** The typed settings. */
export interface UptimeSettings {
  show_system_uptime: boolean;
  show_host_uptime: boolean;
  compact_display: boolean;
  compact_toggle_interval_seconds: number;
  display_format: DisplayFormat;
  poll_interval_seconds: number;
  debug: boolean;
  debug_throttle_seconds: number;
}

/** Defaults. */
export const UPTIME_DEFAULTS: UptimeSettings = {
  show_system_uptime: true,
  show_host_uptime: true,
  compact_display: false,
  compact_toggle_interval_seconds: 5,
  display_format: "full",
  poll_interval_seconds: 5,
  debug: false,
  debug_throttle_seconds: 60,
};

/** Validates a complete candidate; throws 400 naming the setting. */
export function validateUptimeSettings(s: Settings): Settings {
  rejectUnknownSettings(s, UPTIME_DEFAULTS as unknown as Settings);
  const out: UptimeSettings = {
    show_system_uptime: settingBool(s, "show_system_uptime"),
    show_host_uptime: settingBool(s, "show_host_uptime"),
    compact_display: settingBool(s, "compact_display"),
    compact_toggle_interval_seconds: settingInt(s, "compact_toggle_interval_seconds", 5, 60),
    display_format: settingEnum(s, "display_format", DISPLAY_FORMATS),
    poll_interval_seconds: settingInt(s, "poll_interval_seconds", 1, 120),
    debug: settingBool(s, "debug"),
    debug_throttle_seconds: settingInt(s, "debug_throttle_seconds", 1, 120),
  };
  return out as unknown as Settings;
}
