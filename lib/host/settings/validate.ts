/**
 * A plugin's settings through its schema: the defaults, the validation of a candidate (a
 * `SettingError` 400 naming the setting's path; a restricted setting's value never shown), and
 * the merge of a saved update.
 *
 * @module
 */
import { deepMerge } from "../../config/mod.ts";
import { parseSettings } from "../../schema/mod.ts";
import type { PluginDescriptor, Settings } from "../plugin.ts";

/**
 * Validates a complete candidate of `plugin`'s settings and returns it typed and normalised
 * (missing keys take their defaults).
 *
 * @throws {import("../../schema/settings.ts").SettingError} naming the first refused setting.
 */
export function validateSettings<S extends Settings>(
  plugin: PluginDescriptor<S>,
  candidate: unknown,
): S {
  return parseSettings(plugin.settingsSchema, candidate, {
    owner: plugin.id,
    secrets: plugin.restrictedSettings ?? [],
  });
}

/**
 * The default settings of `plugin` (its schema's, validated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { integer } from "../../schema/fields.ts";
 * import { settingsDefaults } from "./validate.ts";
 * const plugin = {
 *   id: "demo",
 *   name: "Demo",
 *   version: "1",
 *   settingsVersion: 1,
 *   settingsSchema: v.strictObject({ interval: v.optional(integer({ min: 1 }), 5) }),
 * };
 * assert.deepEqual(settingsDefaults(plugin), { interval: 5 });
 * ```
 */
export function settingsDefaults<S extends Settings>(plugin: PluginDescriptor<S>): S {
  return validateSettings(plugin, {});
}

/** Merges a saved partial update into `current` with the plugin's rule, or the one deep merge. */
export function mergeUpdate<S extends Settings>(
  plugin: PluginDescriptor<S>,
  current: S,
  partial: Settings,
): Settings {
  return plugin.mergeSettingsUpdate?.(current, partial) ?? deepMerge(current, partial);
}
