/**
 * Settings of the log monitor: one schema with every key's type, default and range (a refused
 * value is named in the error message).
 *
 * @module
 */
import * as v from "valibot";
import { HOST_LOG_NAME } from "../../lib/host/mod.ts";
import { boolean, choice, integer, object, text } from "../../lib/schema/mod.ts";
import { isValidLogName } from "./files.ts";
import { type Level, LEVELS } from "./parse.ts";

/** A plain `.log` file name of the log folder. */
const LOG_NAME = v.pipe(
  text({ maxLength: 255 }),
  v.check((name: string) => isValidLogName(name), "a plain .log file name"),
);

/** A severity level, in any case and spacing (`" warning"` is `WARNING`). */
const LEVEL = v.pipe(
  text(),
  v.transform((l) => l.trim().toUpperCase()),
  v.picklist(LEVELS, `one of ${LEVELS.join(", ")}`),
);

/** A list without repeats (the first kept). */
function uniqueList<T extends v.GenericSchema>(item: T) {
  return v.pipe(
    v.array(item, "a list"),
    v.transform((items) => [...new Set(items)]),
  );
}

/** Every setting of the log monitor (version 1); the host's own log is the default file. */
export const LOGMONITOR_SCHEMA = object({
  show_navbar: v.optional(boolean(), true),
  show_sidebar: v.optional(boolean(), true),
  alerts_enabled: v.optional(boolean(), true),
  severity_triggers: v.optional(uniqueList(LEVEL), (): Level[] => ["WARNING", "ERROR", "CRITICAL"]),
  default_log_file: v.optional(LOG_NAME, HOST_LOG_NAME),
  stream_poll_interval_s: v.optional(integer({ min: 1, max: 60 }), 5),
  max_stream_lines: v.optional(integer({ min: 100, max: 10000 }), 500),
  search_page_size: v.optional(integer({ min: 10, max: 500 }), 50),
  auto_scroll: v.optional(boolean(), true),
  auto_start_streaming: v.optional(boolean(), false),
  enable_notifications: v.optional(boolean(), false),
  regex_search_enabled: v.optional(boolean(), false),
  alert_history_enabled: v.optional(boolean(), true),
  max_alert_history: v.optional(integer({ min: 10, max: 500 }), 100),
  alerts_monitor_mode: v.optional(choice(["selected", "all"]), "selected"),
  alerts_monitored_logs: v.optional(uniqueList(LOG_NAME), () => [HOST_LOG_NAME]),
  mask_log_content: v.optional(boolean(), false),
  debug_mode: v.optional(boolean(), false),
}, "an object");

/** The typed settings. */
export type LogMonitorSettings = v.InferOutput<typeof LOGMONITOR_SCHEMA>;

/**
 * The defaults.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LOGMONITOR_DEFAULTS } from "./settings.ts";
 * assert.deepEqual(LOGMONITOR_DEFAULTS.severity_triggers, ["WARNING", "ERROR", "CRITICAL"]);
 * assert.equal(LOGMONITOR_DEFAULTS.search_page_size, 50);
 * ```
 */
export const LOGMONITOR_DEFAULTS: Readonly<LogMonitorSettings> = Object.freeze(
  v.parse(LOGMONITOR_SCHEMA, {}),
);
