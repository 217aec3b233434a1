/**
 * Validation of the Temperature ETA settings on save: type, range and enum per key (the schema's
 * {@linkcode FIELDS}), the topic prefix's slashes trimmed, then the format and cross-setting rules
 * of `rules.ts`. Every rejection is a `SettingError` 400 (`invalid_setting`) whose message names
 * the setting.
 *
 * @module
 */
import * as v from "valibot";
import { parseSettings } from "../../lib/schema/mod.ts";
import { normaliseStrings, SETTINGS_RULES } from "./rules.ts";
import { FIELDS_SCHEMA, type TempEtaSettings } from "./schema.ts";
import { urlHost } from "../../lib/net.ts";

/** Settings kept out of responses, logs, messages and config.yaml (see the host's secrets file). */
export const SECRET_SETTINGS = ["mqtt_password"] as const;

/** The whole settings schema: the fields, the normalised topic prefix, the rules. */
export const SETTINGS_SCHEMA = v.pipe(
  FIELDS_SCHEMA,
  v.transform(normaliseStrings),
  ...SETTINGS_RULES,
);

/**
 * Validates a complete candidate (defaults + stored + update) and returns it normalised: missing
 * keys take their default, strings are trimmed, the topic prefix loses leading/trailing slashes.
 *
 * @example Rejecting an out-of-range rate
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateSettings } from "./settings.ts";
 * assert.equal(validateSettings({ algorithm: "exponential" }).algorithm, "exponential");
 * assert.throws(
 *   () => validateSettings({ min_rate: 5 }),
 *   /Setting 'min_rate' must be a number between 0.01 and 1.0: got 5$/,
 * );
 * ```
 * @throws {SettingError} (`invalid_setting`) naming the first invalid setting.
 */
export function validateSettings(candidate: unknown): TempEtaSettings {
  return parseSettings(SETTINGS_SCHEMA, candidate, {
    owner: "temp_eta",
    secrets: SECRET_SETTINGS,
  });
}

/** The `host:port` the MQTT broker needs network access to (an IPv6 address bracketed). */
export function brokerTarget(s: { mqtt_broker: string; mqtt_port: number }): string {
  return `${urlHost(s.mqtt_broker)}:${s.mqtt_port}`;
}
