/**
 * The host's settings store (config.yaml `plugins.<id>`), its routes and a plugin's settings
 * through its schema.
 *
 * @module
 */
export { SettingsStore, VERSION_KEY } from "./store.ts";
export { settingsRoutes } from "./api.ts";
export { mergeUpdate, settingsDefaults, validateSettings } from "./validate.ts";
export { readStoredSettings } from "./stored.ts";
