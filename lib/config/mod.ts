/**
 * Configuration: layers, defaults, ports, paths and presets.
 *
 * @module
 */
export { backendOf } from "./types.ts";
export { BACKENDS, CONFIG_SCHEMA, KV_CACHE_QUANTS } from "./schema.ts";
export type {
  BackendKind,
  Config,
  InferenceConfig,
  KvCacheQuant,
  LoadConfig,
  ModelServerConfig,
} from "./types.ts";
export { builtInDefaults, DEFAULT_PORTS } from "./defaults.ts";
export { deepMerge, isPlainObject } from "./merge.ts";
export type { JsonObject } from "./merge.ts";
export { normalisePorts } from "./ports.ts";
export {
  configDir,
  dataDir,
  outputTarget,
  processEnv,
  resolvePaths,
  storeLocation,
} from "./paths.ts";
export type { EnvReader, Paths } from "./paths.ts";
export { parseJsonText, readJsonFile } from "./json_file.ts";
export { validateLayer } from "./validate.ts";
export { applyLayer, loadConfig, PROJECT_DEFAULTS } from "./load.ts";
export type { LayerReport, LoadConfigOptions, LoadedConfig } from "./load.ts";
export {
  BUILT_IN_PRESETS,
  deletePreset,
  listPresets,
  loadPreset,
  normalisePresetValues,
  presetPath,
  savePreset,
  validatePresetName,
} from "./presets.ts";
export type { BrokenPreset, Preset, PresetValues } from "./presets.ts";
