/**
 * Settings migration of the Temperature ETA plugin. Version 1 is the reference plugin's key set;
 * version 2 is the seed's. The migration renames keys, folds the master/per-event sound and
 * notification switches into per-event ones, clamps numbers into the version 2 ranges, drops the
 * reference's defaults that differ from ours, and drops keys that have no version 2 meaning.
 *
 * @module
 */
import { fieldInfo } from "../../lib/schema/mod.ts";
import { FIELDS, SETTINGS_VERSION } from "./schema.ts";

/** Version 1 key → version 2 key (straight renames). */
export const V1_RENAMES: Readonly<Record<string, string>> = {
  threshold_start: "heating_threshold",
  mqtt_broker_host: "mqtt_broker",
  mqtt_broker_port: "mqtt_port",
  mqtt_base_topic: "mqtt_topic_prefix",
  mqtt_use_tls: "mqtt_tls_enabled",
  history_size: "history_max_samples",
  enable_heating_eta: "heating_enabled",
  enable_cooldown_eta: "cooling_enabled",
  cooldown_target_tool0: "cooling_target_tool",
  cooldown_target_bed: "cooling_target_bed",
  cooldown_target_chamber: "cooling_target_chamber",
};

/** Version 1 values that were defaults there and must become our defaults (key → old default). */
const V1_DEFAULTS: Readonly<Record<string, unknown>> = {
  mqtt_broker_host: "",
  mqtt_base_topic: "octoprint/temp_eta",
};

/** Whether `key` is a setting of version 2. */
function isField(key: string): key is keyof typeof FIELDS {
  return Object.hasOwn(FIELDS, key);
}

/** A number clamped into the version 2 range of its setting (the schema's bounds). */
function clampToSchema(key: keyof typeof FIELDS, value: unknown): unknown {
  const info = fieldInfo(FIELDS[key]);
  if (typeof value !== "number" || !Number.isFinite(value)) return value;
  if (info?.kind !== "number" && info?.kind !== "integer") return value;
  const rounded = info.kind === "integer" ? Math.round(value) : value;
  return Math.min(info.max ?? Infinity, Math.max(info.min ?? -Infinity, rounded));
}

function migrateV1(stored: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored)) {
    if (key in V1_DEFAULTS && V1_DEFAULTS[key] === value) continue;
    const target = V1_RENAMES[key] ?? key;
    if (!isField(target)) continue; // no version 2 meaning
    if (key !== target && target in stored) continue; // a key already named for v2 wins
    out[target] = clampToSchema(target, value);
  }
  // Master switch + per-event switch (v1) → per-event switch (v2).
  for (const [master, events] of [["sound", "sound"], ["notification", "notification"]] as const) {
    const on = stored[`${master}_enabled`];
    const heat = stored[`${events}_target_reached`];
    const cool = stored[`${events}_cooldown_finished`];
    if (typeof on !== "boolean") continue;
    if (typeof heat === "boolean") out[`heating_${master}_enabled`] = on && heat;
    if (typeof cool === "boolean") out[`cooling_${master}_enabled`] = on && cool;
  }
  return out;
}

/**
 * Migrates stored settings from `fromVersion` to {@linkcode SETTINGS_VERSION}. Keys already in the
 * current naming are kept as they are; the result still goes through validation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { migrateSettings } from "./migrate.ts";
 * const v2 = migrateSettings({ threshold_start: 3, mqtt_broker_host: "broker" }, 1);
 * assert.ok(v2.heating_threshold === 3 && v2.mqtt_broker === "broker");
 * ```
 */
export function migrateSettings(
  stored: Record<string, unknown>,
  fromVersion: number,
): Record<string, unknown> {
  if (fromVersion >= SETTINGS_VERSION) return { ...stored };
  return migrateV1(stored);
}
