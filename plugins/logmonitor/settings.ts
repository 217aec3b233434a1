/**
 * Settings of the log monitor: defaults, ranges and validation (a rejected value is named in
 * the error message).
 *
 * @module
 */
import type { Settings } from "../../lib/host/plugin.ts";
import {
  rejectUnknownSettings,
  settingBool,
  settingEnum,
  settingInt,
  settingString,
  settingStringList,
} from "../../lib/host/settings/validate.ts";
import { UsageError } from "../../lib/error.ts";
import { HOST_LOG_NAME } from "../../lib/host/host_log.ts";
import { isValidLogName } from "./files.ts";
import { type Level, LEVELS } from "./parse.ts";

/** The typed settings. */
export interface LogMonitorSettings {
  show_navbar: boolean;
  show_sidebar: boolean;
  alerts_enabled: boolean;
  severity_triggers: Level[];
  default_log_file: string;
  stream_poll_interval_s: number;
  max_stream_lines: number;
  search_page_size: number;
  auto_scroll: boolean;
  auto_start_streaming: boolean;
  enable_notifications: boolean;
  regex_search_enabled: boolean;
  alert_history_enabled: boolean;
  max_alert_history: number;
  alerts_monitor_mode: "selected" | "all";
  alerts_monitored_logs: string[];
  mask_log_content: boolean;
  debug_mode: boolean;
}

/** Defaults (the host's own log is the default file). */
export const LOGMONITOR_DEFAULTS: LogMonitorSettings = {
  show_navbar: true,
  show_sidebar: true,
  alerts_enabled: true,
  severity_triggers: ["WARNING", "ERROR", "CRITICAL"],
  default_log_file: HOST_LOG_NAME,
  stream_poll_interval_s: 5,
  max_stream_lines: 500,
  search_page_size: 50,
  auto_scroll: true,
  auto_start_streaming: false,
  enable_notifications: false,
  regex_search_enabled: false,
  alert_history_enabled: true,
  max_alert_history: 100,
  alerts_monitor_mode: "selected",
  alerts_monitored_logs: [HOST_LOG_NAME],
  mask_log_content: false,
  debug_mode: false,
};

const nameCheck = (s: string) => isValidLogName(s) ? null : "must be plain .log filenames";

/** Validates a complete candidate; throws 400 naming the setting. */
export function validateLogMonitorSettings(s: Settings): Settings {
  rejectUnknownSettings(s, LOGMONITOR_DEFAULTS as unknown as Settings);
  const triggers = settingStringList(
    s,
    "severity_triggers",
    (l) => (LEVELS as readonly string[]).includes(l.trim().toUpperCase()) ? null : `unknown level`,
  );
  const defaultFile = settingString(s, "default_log_file", 255);
  if (!isValidLogName(defaultFile)) {
    throw new UsageError(
      `Invalid value for setting 'default_log_file': must be a plain .log filename`,
    );
  }
  const out: LogMonitorSettings = {
    show_navbar: settingBool(s, "show_navbar"),
    show_sidebar: settingBool(s, "show_sidebar"),
    alerts_enabled: settingBool(s, "alerts_enabled"),
    severity_triggers: [...new Set(triggers.map((l) => l.trim().toUpperCase() as Level))],
    default_log_file: defaultFile,
    stream_poll_interval_s: settingInt(s, "stream_poll_interval_s", 1, 60),
    max_stream_lines: settingInt(s, "max_stream_lines", 100, 10000),
    search_page_size: settingInt(s, "search_page_size", 10, 500),
    auto_scroll: settingBool(s, "auto_scroll"),
    auto_start_streaming: settingBool(s, "auto_start_streaming"),
    enable_notifications: settingBool(s, "enable_notifications"),
    regex_search_enabled: settingBool(s, "regex_search_enabled"),
    alert_history_enabled: settingBool(s, "alert_history_enabled"),
    max_alert_history: settingInt(s, "max_alert_history", 10, 500),
    alerts_monitor_mode: settingEnum(s, "alerts_monitor_mode", ["selected", "all"] as const),
    alerts_monitored_logs: [...new Set(settingStringList(s, "alerts_monitored_logs", nameCheck))],
    mask_log_content: settingBool(s, "mask_log_content"),
    debug_mode: settingBool(s, "debug_mode"),
  };
  return out as unknown as Settings;
}
