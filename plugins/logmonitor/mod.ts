/**
 * The log monitor plugin (`logmonitor`): lists, downloads, searches and exports the host's
 * `.log` files, streams new lines over the push socket and counts severity alerts.
 *
 * @module
 */
export {
  createLogMonitorPlugin,
  isValidLogName,
  LEVELS,
  LOGMONITOR_DEFAULTS,
  LOGMONITOR_SCHEMA,
  MAX_FILE_BYTES,
  parseLine,
  parseSearchParams,
  plugin,
  renderExport,
  resolveLogFile,
  searchFile,
} from "./plugin.ts";
export type {
  Level,
  LogMonitorInstance,
  LogMonitorOptions,
  LogMonitorRuntime,
  LogMonitorSettings,
  ParsedLine,
  SearchParams,
  SearchResult,
} from "./plugin.ts";
