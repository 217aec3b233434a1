/**
 * The log monitor plugin (`logmonitor`): lists, downloads, searches and exports the host's
 * `.log` files, streams new lines over the push socket and counts severity alerts.
 *
 * @module
 */
export {
  createLogMonitorPlugin,
  isAdminOnlyLog,
  isValidLogName,
  LEVELS,
  LOGMONITOR_DEFAULTS,
  LOGMONITOR_SCHEMA,
  MAX_FILE_BYTES,
  mayReadLog,
  parseLine,
  parseSearchParams,
  plugin,
  readableLogs,
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
