/**
 * The results store: SQLite (`node:sqlite`, WAL) by default, or PostgreSQL (`postgres://` URL),
 * one versioned schema for both.
 *
 * @module
 */
export { INTERRUPTED_ERROR, ResultsStore } from "./store.ts";
export type { ResultRow, StoreOptions } from "./store.ts";
export type { Cell, ModelRecord, ResultFinish, ResultStart, Row, RunRecord } from "./rows.ts";
export {
  ensureColumns,
  migrate,
  openDatabase,
  transaction,
  userVersion,
  withColumnRetry,
} from "./db.ts";
export {
  AGGREGATED_METRICS,
  LATENCY_METRICS,
  LATENCY_PERCENTILES,
  MIGRATIONS,
  OPTIONAL_COLUMNS,
  SCHEMA_VERSION,
  STAT_SUFFIXES,
} from "./schema.ts";
export { aggregateRuns, gapsOf, percentileColumns } from "./aggregate.ts";
export type { RunFigures } from "./aggregate.ts";
export { seriesId } from "./history_series.ts";
export {
  canonical,
  cellLabel,
  cellParams,
  keyedParams,
  paramsHash,
  workloadText,
} from "./identity.ts";
export type { GridCell, IdentityParams, LoadKey } from "./identity.ts";
export { cacheListing, cacheListingJson, exportCache } from "./export.ts";
export { type ImportedResult, type ImportOutcome, storeImported } from "./imported.ts";
export { loadCurves } from "./load_curves.ts";
export {
  LEVEL_PERCENTILE_METRICS,
  type LevelMetric,
  levelPercentile,
  levelPercentiles,
  percentileLabel,
} from "./level_percentiles.ts";
export { registerLineFunctions } from "./history_sums.ts";
export type { LoadCurve } from "./load_curves.ts";
export { openStore } from "./open.ts";
export { type CopyOutcome, copyStore } from "./copy.ts";
export { connectionOf, isPostgresUrl, redactUrl } from "./pg/open.ts";
export { dialectOf, isPostgres, type StoreDb } from "./database.ts";
export { type MachineResult, modelOnMachines } from "./machine_compare.ts";
export {
  gpusText,
  labelled,
  machineLabels,
  type MachineRecord,
  type MachineRow,
  machines,
  UNKNOWN_MACHINE,
} from "./machines.ts";
export {
  clearCache,
  comparableModels,
  type ComparableVariant,
  comparableVariants,
  dashboardStats,
  deleteModel,
  HISTORY_LIMITS,
  type HistorySeries,
  type HistoryWindow,
  type ModelHistory,
  modelHistory,
  RESULTS_COLUMNS,
  resultsColumns,
  resultsTable,
} from "./dashboard.ts";
