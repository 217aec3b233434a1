/**
 * The per-key format rules and the cross-setting rules of the Temperature ETA settings, applied by
 * `validateSettings` after every key passed its type and range check.
 *
 * @module
 */
import { isAbsolute } from "node:path";
import { AppError, UsageError } from "../../lib/error.ts";
import type { TempEtaSettings } from "./schema.ts";
import { SOUND_NAME, soundFileExists } from "./sounds.ts";

function invalid(message: string): AppError {
  return new UsageError(message, { code: "invalid_setting" });
}

const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/** True for a host name (RFC 1123 labels), an IPv4 address or an IPv6 address. */
export function isHostName(value: string): boolean {
  if (value.includes(":")) return IPV6.test(value) && value.split(":").length >= 3;
  return value.length <= 253 && value.split(".").every((label) => HOST_LABEL.test(label));
}

/** Trims leading and trailing slashes of the topic prefix. */
export function normaliseStrings(s: TempEtaSettings): TempEtaSettings {
  return { ...s, mqtt_topic_prefix: s.mqtt_topic_prefix.replace(/^\/+|\/+$/g, "") };
}

function checkSoundFile(key: string, value: string): void {
  if (value === "default") return;
  if (!SOUND_NAME.test(value)) {
    throw invalid(
      `Setting '${key}' must be 'default' or a .wav, .mp3 or .ogg file name: got ${
        JSON.stringify(value)
      }`,
    );
  }
  if (!soundFileExists(value)) {
    throw invalid(
      `Setting '${key}' must name a file in the plugin's sounds folder: ${
        JSON.stringify(value)
      } not found`,
    );
  }
}

function checkCaCert(value: string): void {
  if (value === "" || value.startsWith("-----BEGIN")) return;
  if (!isAbsolute(value)) {
    throw invalid(
      `Setting 'mqtt_ca_cert' must be an absolute path of a CA file or PEM text: got ${
        JSON.stringify(value)
      }`,
    );
  }
  // The permission-scoped host may not read a file it has not been granted yet: the launcher
  // checks it (after resolving links) and grants that file alone when the host restarts.
  if (Deno.permissions.querySync({ name: "read", path: value }).state !== "granted") return;
  let isFile = false;
  try {
    isFile = Deno.statSync(value).isFile;
  } catch {
    isFile = false;
  }
  if (!isFile) {
    throw invalid(
      `Setting 'mqtt_ca_cert' must be a readable CA file or PEM text: ${
        JSON.stringify(value)
      } not found`,
    );
  }
}

function notLonger(s: TempEtaSettings, key: keyof TempEtaSettings, limit: keyof TempEtaSettings) {
  if ((s[key] as number) > (s[limit] as number)) {
    throw invalid(
      `Setting '${key}' must not be longer than '${limit}' (${s[limit]}): got ${s[key]}`,
    );
  }
}

/**
 * Applies the format and cross-setting rules.
 *
 * @throws {AppError} 400 (`invalid_setting`) naming the setting that breaks a rule.
 */
export function checkCrossRules(s: TempEtaSettings): void {
  checkSoundFile("heating_sound_file", s.heating_sound_file);
  checkSoundFile("cooling_sound_file", s.cooling_sound_file);
  if (s.mqtt_broker !== "" && !isHostName(s.mqtt_broker)) {
    throw invalid(
      `Setting 'mqtt_broker' must be a host name or address: got ${JSON.stringify(s.mqtt_broker)}`,
    );
  }
  if (s.mqtt_enabled && s.mqtt_broker === "") {
    throw invalid("Setting 'mqtt_broker' must not be empty while 'mqtt_enabled' is on");
  }
  if (s.mqtt_topic_prefix === "" || /[+#\0]/.test(s.mqtt_topic_prefix)) {
    throw invalid(
      `Setting 'mqtt_topic_prefix' must be a non-empty topic without '+', '#' or NUL: got ${
        JSON.stringify(s.mqtt_topic_prefix)
      }`,
    );
  }
  if (s.mqtt_password !== "" && s.mqtt_username === "") {
    throw invalid("Setting 'mqtt_password' needs 'mqtt_username' to be set");
  }
  if (s.mqtt_tls_insecure && !s.mqtt_tls_enabled) {
    throw invalid("Setting 'mqtt_tls_insecure' needs 'mqtt_tls_enabled' to be on");
  }
  checkCaCert(s.mqtt_ca_cert);
  notLonger(s, "linear_window", "history_max_age");
  notLonger(s, "exponential_window", "history_max_age");
  notLonger(s, "cleanup_interval", "history_max_age");
  notLonger(s, "calculation_interval", "update_interval");
}
