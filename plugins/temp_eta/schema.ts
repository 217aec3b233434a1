/**
 * The settings of the Temperature ETA plugin (settings version 2) as one schema: every key with
 * its type, default and range (`FIELDS`), then the format and cross-setting rules of `rules.ts`.
 * The seed's keys, defaults and ranges are authoritative; ranges the seed leaves open are decided
 * here (see the `decided` notes) and listed in the plugin's README.
 *
 * @module
 */
import * as v from "valibot";
import { boolean, choice, fieldInfo, integer, number, object, text } from "../../lib/schema/mod.ts";
import { ALGORITHMS, TIME_FORMATS } from "./choices.ts";
import { PLUGIN_ID } from "./id.ts";

/** The current settings version. */
export const SETTINGS_VERSION = 2;

export { ALGORITHMS, TIME_FORMATS } from "./choices.ts";

const bool = (d: boolean) => v.optional(boolean(), d);
const float = (d: number, min: number, max: number) => v.optional(number({ min, max }), d);
const int = (d: number, min: number, max: number) => v.optional(integer({ min, max }), d);
/** A string checked at its given length, then trimmed. */
const str = (d: string, maxLength = 256) => v.optional(v.pipe(text({ maxLength }), v.trim()), d);

/** Every setting of version 2, in the seed's order, then the settings DECISIONS.md adds. */
export const FIELDS = {
  enabled: bool(true),
  algorithm: v.optional(choice(ALGORITHMS), "linear"),
  update_interval: float(1.0, 0.5, 5.0),
  min_rate: float(0.1, 0.01, 1.0),
  max_eta: int(3600, 60, 7200),
  heating_enabled: bool(true),
  heating_threshold: float(1.0, 0.1, 10.0),
  heating_sound_enabled: bool(false),
  heating_sound_file: str("default", 128),
  heating_notification_enabled: bool(true),
  cooling_enabled: bool(true),
  cooling_threshold: float(1.0, 0.1, 10.0),
  cooling_sound_enabled: bool(false),
  cooling_sound_file: str("default", 128),
  cooling_notification_enabled: bool(true),
  show_in_graph: bool(true),
  show_in_sidebar: bool(true),
  show_in_navbar: bool(false),
  time_format: v.optional(choice(TIME_FORMATS), "auto"),
  show_rate: bool(true),
  show_percentage: bool(false),
  mqtt_enabled: bool(false),
  mqtt_broker: str("localhost", 253),
  mqtt_port: int(1883, 1, 65535),
  mqtt_username: str(""),
  mqtt_password: str(""),
  mqtt_tls_enabled: bool(false),
  mqtt_tls_insecure: bool(false),
  // decided: a path to a PEM file, or the PEM text itself.
  mqtt_ca_cert: str("", 65536),
  mqtt_topic_prefix: str(`localbench/${PLUGIN_ID}`, 200),
  mqtt_retain: bool(false),
  mqtt_qos: v.optional(
    v.pipe(integer({ min: 0, max: 2 }), v.transform((n): 0 | 1 | 2 => n === 2 ? 2 : n ? 1 : 0)),
    0,
  ),
  // decided: 0 (keepalive off) to 65535, the protocol's limit.
  mqtt_keepalive: int(60, 0, 65535),
  history_max_age: int(60, 10, 300),
  history_max_samples: int(120, 10, 1000),
  exponential_window: int(30, 10, 60),
  linear_window: int(10, 5, 30),
  // decided: 10 s to 3600 s.
  exponential_max_tau: int(300, 10, 3600),
  // decided: 0.1 s to 5 s, and not longer than update_interval.
  calculation_interval: float(0.5, 0.1, 5.0),
  // decided: 1 s to 60 s, and not longer than history_max_age.
  cleanup_interval: float(5.0, 1.0, 60.0),
  debug_logging: bool(false),
  // DECISIONS.md: cooling targets in °C; ranges decided (the reference's save-time clamps).
  cooling_target_tool: float(50, 0, 400),
  cooling_target_bed: float(40, 0, 200),
  cooling_target_chamber: float(30, 0, 100),
};

/** The keys and types of version 2, before the format and cross-setting rules. */
export const FIELDS_SCHEMA = object(FIELDS, "an object");

/** Typed view of validated settings. */
export type TempEtaSettings = v.InferOutput<typeof FIELDS_SCHEMA>;

/** The default settings of version 2. */
export const DEFAULTS: Readonly<TempEtaSettings> = Object.freeze(v.parse(FIELDS_SCHEMA, {}));

/** A range bound as the settings table writes it (`5.0` for a decimal setting). */
function shownBound(n: number, decimal: boolean): string {
  return decimal && Number.isInteger(n) ? n.toFixed(1) : String(n);
}

/**
 * The range of every number setting as the settings screen's hints say it, read from
 * {@linkcode FIELDS} (the server hands them to the screen, which loads no schema code).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rangeHints } from "./schema.ts";
 * assert.equal(rangeHints().update_interval, "From 0.5 to 5.0.");
 * assert.equal(rangeHints().max_eta, "From 60 to 7200.");
 * ```
 */
export function rangeHints(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, field] of Object.entries(FIELDS)) {
    const info = fieldInfo(field);
    if (info?.min === undefined || info.max === undefined) continue;
    const decimal = info.kind === "number";
    out[key] = `From ${shownBound(info.min, decimal)} to ${shownBound(info.max, decimal)}.`;
  }
  return out;
}
