/**
 * The uptime plugin: `GET /api/plugin/<id>` reports system and host uptime in several text
 * forms and the poll interval the navbar widget should use.
 *
 * @module
 */
export {
  compactToggleMs,
  createUptimePlugin,
  DISPLAY_FORMATS,
  ERROR_RETRY_MS,
  formatUptime,
  isCompact,
  nextPollMs,
  plugin,
  systemUptimeSeconds,
  UNAVAILABLE_NOTES,
  UPTIME_DEFAULTS,
  UPTIME_SCHEMA,
  uptimePayload,
  widgetState,
} from "./plugin.ts";
export type {
  DisplayFormat,
  UptimePluginOptions,
  UptimeSettings,
  UptimeTexts,
  UptimeView,
  WidgetState,
} from "./plugin.ts";
