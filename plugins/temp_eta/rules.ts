/**
 * The format rules and the cross-setting rules of the Temperature ETA settings, applied by the
 * settings schema after every key passed its type and range check. Each names the setting that
 * breaks it.
 *
 * @module
 */
import { isAbsolute } from "node:path";
import { rule } from "../../lib/schema/mod.ts";
import type { TempEtaSettings } from "./schema.ts";
import { SOUND_NAME, soundFileExists } from "./sounds.ts";

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

function soundProblem(key: string, value: string): string | null {
  if (value === "default") return null;
  if (!SOUND_NAME.test(value)) {
    return `Setting '${key}' must be 'default' or a .wav, .mp3 or .ogg file name: got ${
      JSON.stringify(value)
    }`;
  }
  if (!soundFileExists(value)) {
    return `Setting '${key}' must name a file in the plugin's sounds folder: ${
      JSON.stringify(value)
    } not found`;
  }
  return null;
}

function caCertProblem(value: string): string | null {
  if (value === "" || value.startsWith("-----BEGIN")) return null;
  if (!isAbsolute(value)) {
    return `Setting 'mqtt_ca_cert' must be an absolute path of a CA file or PEM text: got ${
      JSON.stringify(value)
    }`;
  }
  // The permission-scoped host may not read a file it has not been granted yet: the launcher
  // checks it (after resolving links) and grants that file alone when the host restarts.
  if (Deno.permissions.querySync({ name: "read", path: value }).state !== "granted") return null;
  let isFile = false;
  try {
    isFile = Deno.statSync(value).isFile;
  } catch {
    isFile = false;
  }
  return isFile
    ? null
    : `Setting 'mqtt_ca_cert' must be a readable CA file or PEM text: ${
      JSON.stringify(value)
    } not found`;
}

type NumberKey = {
  [K in keyof TempEtaSettings]: TempEtaSettings[K] extends number ? K : never;
}[keyof TempEtaSettings];

function notLonger(key: NumberKey, limit: NumberKey) {
  return rule<TempEtaSettings>(
    key,
    (s) =>
      s[key] > s[limit]
        ? `Setting '${key}' must not be longer than '${limit}' (${s[limit]}): got ${s[key]}`
        : null,
  );
}

/** The format and cross-setting rules, in the order they are checked. */
export const SETTINGS_RULES = [
  rule<TempEtaSettings>(
    "heating_sound_file",
    (s) => soundProblem("heating_sound_file", s.heating_sound_file),
  ),
  rule<TempEtaSettings>(
    "cooling_sound_file",
    (s) => soundProblem("cooling_sound_file", s.cooling_sound_file),
  ),
  rule<TempEtaSettings>(
    "mqtt_broker",
    (s) =>
      s.mqtt_broker !== "" && !isHostName(s.mqtt_broker)
        ? `Setting 'mqtt_broker' must be a host name or address: got ${
          JSON.stringify(s.mqtt_broker)
        }`
        : s.mqtt_enabled && s.mqtt_broker === ""
        ? "Setting 'mqtt_broker' must not be empty while 'mqtt_enabled' is on"
        : null,
  ),
  rule<TempEtaSettings>(
    "mqtt_topic_prefix",
    (s) =>
      s.mqtt_topic_prefix === "" || /[+#\0]/.test(s.mqtt_topic_prefix)
        ? `Setting 'mqtt_topic_prefix' must be a non-empty topic without '+', '#' or NUL: got ${
          JSON.stringify(s.mqtt_topic_prefix)
        }`
        : null,
  ),
  rule<TempEtaSettings>(
    "mqtt_password",
    (s) =>
      s.mqtt_password !== "" && s.mqtt_username === ""
        ? "Setting 'mqtt_password' needs 'mqtt_username' to be set"
        : null,
  ),
  rule<TempEtaSettings>(
    "mqtt_tls_insecure",
    (s) =>
      s.mqtt_tls_insecure && !s.mqtt_tls_enabled
        ? "Setting 'mqtt_tls_insecure' needs 'mqtt_tls_enabled' to be on"
        : null,
  ),
  rule<TempEtaSettings>("mqtt_ca_cert", (s) => caCertProblem(s.mqtt_ca_cert)),
  notLonger("linear_window", "history_max_age"),
  notLonger("exponential_window", "history_max_age"),
  notLonger("cleanup_interval", "history_max_age"),
  notLonger("calculation_interval", "update_interval"),
] as const;
