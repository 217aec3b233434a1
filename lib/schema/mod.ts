/**
 * The one schema language of localbench: valibot (pinned in deno.json), with the field schemas
 * (`integer`, `number`, `boolean`, `text`, `choice`) whose message says what the value must be,
 * and the parsing of settings into typed values with errors that name the setting's path. The
 * configuration (`lib/config/schema.ts`), the presets and every plugin's settings are described
 * with it.
 *
 * @module
 */
export {
  boolean,
  type Bounds,
  choice,
  entriesOf,
  fieldAt,
  type FieldInfo,
  fieldInfo,
  integer,
  number,
  numberPhrase,
  object,
  text,
  type TextOptions,
  unwrapped,
} from "./fields.ts";
export {
  issuePath,
  parseSetting,
  parseSettings,
  type ParseSettingsOptions,
  pathText,
  rule,
  SettingError,
  settingIssue,
  shownValue,
} from "./settings.ts";
