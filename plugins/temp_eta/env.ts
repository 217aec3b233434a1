/**
 * Environment overrides for testing, prefixed with the plugin's id upper-cased (`TEMP_ETA_`):
 * `TEMP_ETA_ALGORITHM`, `TEMP_ETA_MIN_RATE` and `TEMP_ETA_DEBUG` (value 1). They change the
 * effective settings the plugin runs with, never the stored ones; an invalid value is ignored
 * and reported.
 *
 * @module
 */
import { messageOf } from "../../lib/error.ts";
import { PLUGIN_ID } from "./id.ts";
import type { TempEtaSettings } from "./schema.ts";
import { validateSettings } from "./settings.ts";

/** The prefix of the override variables: the plugin's id upper-cased, then `_`. */
export const ENV_PREFIX = `${PLUGIN_ID.toUpperCase()}_`;

/** The variables read (declared to the host so that it passes them through). */
export const ENV_VARS = ["ALGORITHM", "MIN_RATE", "DEBUG"].map((name) => ENV_PREFIX + name);

/** The result of {@linkcode applyEnvOverrides}. */
export interface EnvOverrides {
  settings: TempEtaSettings;
  /** Setting keys that an environment variable changed. */
  applied: string[];
  /** One message per ignored variable. */
  rejected: string[];
}

/** `1`/`true` and `0`/`false` as booleans; anything else as given (the schema refuses it). */
function parseFlag(value: string): boolean | string {
  const v = value.trim().toLowerCase();
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  return value;
}

/**
 * Applies the overrides found in `env` to validated settings.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyEnvOverrides } from "./env.ts";
 * import { validateSettings } from "./settings.ts";
 * const r = applyEnvOverrides(validateSettings({}), { TEMP_ETA_ALGORITHM: "exponential" });
 * assert.equal(r.settings.algorithm, "exponential");
 * ```
 */
export function applyEnvOverrides(
  settings: TempEtaSettings,
  env: Readonly<Record<string, string>>,
): EnvOverrides {
  let next = settings;
  const applied: string[] = [];
  const rejected: string[] = [];
  const set = (variable: string, key: keyof TempEtaSettings, parse: (raw: string) => unknown) => {
    const raw = env[ENV_PREFIX + variable];
    if (raw === undefined) return;
    try {
      // The settings' own schema checks the value (and names it if it is refused).
      next = validateSettings({ ...next, [key]: parse(raw) });
      applied.push(key);
    } catch (err) {
      rejected.push(`${ENV_PREFIX}${variable} ignored: ${messageOf(err)}`);
    }
  };
  set("ALGORITHM", "algorithm", (raw) => raw.trim().toLowerCase());
  set("MIN_RATE", "min_rate", (raw) => (raw.trim() === "" ? NaN : Number(raw)));
  set("DEBUG", "debug_logging", parseFlag);
  return { settings: next, applied, rejected };
}
