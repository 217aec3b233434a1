/**
 * Validation of the Temperature ETA settings on save: type, range and enum per key (from
 * {@linkcode SCHEMA}), then the per-key format rules and the cross-setting rules of `rules.ts`.
 * Every rejection is an `AppError` 400 with code `invalid_setting` whose message names the setting.
 *
 * @module
 */
import { AppError, UsageError } from "../../lib/error.ts";
import { SCHEMA, type SettingSpec, type TempEtaSettings } from "./schema.ts";
import { checkCrossRules, normaliseStrings } from "./rules.ts";

/** Settings kept out of responses, logs and config.yaml (see the host's secrets file). */
export const SECRET_SETTINGS: readonly string[] = ["mqtt_password"];

/** Builds the 400 error of an invalid setting. */
export function invalidSetting(message: string): AppError {
  return new UsageError(message, { code: "invalid_setting" });
}

/** Formats a bound the way the settings table writes it (`1.0` for floats, `60` for integers). */
function bound(spec: SettingSpec, n: number): string {
  return spec.type === "float" && Number.isInteger(n) ? n.toFixed(1) : String(n);
}

function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
}

/**
 * Checks one value against its spec and returns it (numbers unchanged, strings trimmed).
 *
 * @throws {AppError} 400 naming the setting when the type, range or option is wrong.
 */
export function checkValue(key: string, spec: SettingSpec, value: unknown): unknown {
  // A secret never appears in a message (responses and logs): its type is enough.
  const shown = SECRET_SETTINGS.includes(key) ? `a hidden ${typeof value}` : show(value);
  const fail = (what: string) => invalidSetting(`Setting '${key}' must be ${what}: got ${shown}`);
  switch (spec.type) {
    case "boolean":
      if (typeof value !== "boolean") throw fail("a boolean");
      return value;
    case "float":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw fail(spec.type === "float" ? "a number" : "an integer");
      }
      if (spec.type === "integer" && !Number.isInteger(value)) throw fail("an integer");
      if (value < spec.min || value > spec.max) {
        throw fail(`between ${bound(spec, spec.min)} and ${bound(spec, spec.max)}`);
      }
      return value;
    }
    case "enum":
      if (typeof value !== "string" || !spec.options.includes(value)) {
        throw fail(`one of ${spec.options.join(", ")}`);
      }
      return value;
    case "string":
      if (typeof value !== "string") throw fail("a string");
      if (value.length > spec.maxLength) throw fail(`at most ${spec.maxLength} characters long`);
      return value.trim();
  }
}

/**
 * Validates a complete candidate (defaults + stored + update) and returns it normalised: missing
 * keys take their default, strings are trimmed, the topic prefix loses leading/trailing slashes.
 *
 * @example Rejecting an out-of-range rate
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateSettings } from "./settings.ts";
 * assert.throws(() => validateSettings({ min_rate: 5 }), /'min_rate'/);
 * ```
 * @throws {AppError} 400 (`invalid_setting`) naming the first invalid setting.
 */
export function validateSettings(candidate: Record<string, unknown>): TempEtaSettings {
  if (candidate === null || typeof candidate !== "object" || Array.isArray(candidate)) {
    throw invalidSetting("Settings of 'temp_eta' must be an object");
  }
  for (const key of Object.keys(candidate)) {
    if (!(key in SCHEMA)) throw invalidSetting(`Setting '${key}' is not a setting of temp_eta`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(SCHEMA)) {
    const value = candidate[key] === undefined ? spec.default : candidate[key];
    out[key] = checkValue(key, spec, value);
  }
  const settings = normaliseStrings(out as unknown as TempEtaSettings);
  checkCrossRules(settings);
  return settings;
}

/** The `host:port` the MQTT broker needs network access to (an IPv6 address bracketed). */
export function brokerTarget(s: { mqtt_broker: string; mqtt_port: number }): string {
  const host = s.mqtt_broker.includes(":") ? `[${s.mqtt_broker}]` : s.mqtt_broker;
  return `${host}:${s.mqtt_port}`;
}
