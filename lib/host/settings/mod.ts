/**
 * The host's settings store (config.yaml `plugins.<id>`), its routes and validation helpers.
 *
 * @module
 */
export { mergeSettings, SettingsStore, VERSION_KEY } from "./store.ts";
export { settingsRoutes } from "./routes.ts";
export {
  rejectUnknownSettings,
  settingBool,
  settingEnum,
  settingInt,
  settingNumber,
  settingString,
  settingStringList,
} from "./validate.ts";
