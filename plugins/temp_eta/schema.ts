/**
 * The settings table of the Temperature ETA plugin (settings version 2): every key with its type,
 * default and range. The seed's keys, defaults and ranges are authoritative; ranges the seed leaves
 * open are decided here (see the `decided` notes) and listed in the plugin's README.
 *
 * @module
 */

/** The type and bounds of one setting. */
export type SettingSpec =
  | { type: "boolean"; default: boolean }
  | { type: "float"; default: number; min: number; max: number }
  | { type: "integer"; default: number; min: number; max: number }
  | { type: "enum"; default: string; options: readonly string[] }
  | { type: "string"; default: string; maxLength: number };

/** The current settings version. */
export const SETTINGS_VERSION = 2;

/** Heating / cooling algorithms. */
export const ALGORITHMS = ["linear", "exponential"] as const;

/** ETA display formats. */
export const TIME_FORMATS = ["auto", "seconds", "minutes", "hours", "hms"] as const;

const bool = (d: boolean): SettingSpec => ({ type: "boolean", default: d });
const float = (d: number, min: number, max: number): SettingSpec => ({
  type: "float",
  default: d,
  min,
  max,
});
const int = (d: number, min: number, max: number): SettingSpec => ({
  type: "integer",
  default: d,
  min,
  max,
});
const str = (d: string, maxLength = 256): SettingSpec => ({
  type: "string",
  default: d,
  maxLength,
});

/** Every setting of version 2, in the seed's order, then the settings DECISIONS.md adds. */
export const SCHEMA: Readonly<Record<string, SettingSpec>> = {
  enabled: bool(true),
  algorithm: { type: "enum", default: "linear", options: ALGORITHMS },
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
  time_format: { type: "enum", default: "auto", options: TIME_FORMATS },
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
  mqtt_topic_prefix: str("localbench/temp_eta", 200),
  mqtt_retain: bool(false),
  mqtt_qos: int(0, 0, 2),
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

/** The default settings of version 2. */
export const DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze(
  Object.fromEntries(Object.entries(SCHEMA).map(([key, spec]) => [key, spec.default])),
);

/** Typed view of validated settings. */
export interface TempEtaSettings {
  enabled: boolean;
  algorithm: (typeof ALGORITHMS)[number];
  update_interval: number;
  min_rate: number;
  max_eta: number;
  heating_enabled: boolean;
  heating_threshold: number;
  heating_sound_enabled: boolean;
  heating_sound_file: string;
  heating_notification_enabled: boolean;
  cooling_enabled: boolean;
  cooling_threshold: number;
  cooling_sound_enabled: boolean;
  cooling_sound_file: string;
  cooling_notification_enabled: boolean;
  show_in_graph: boolean;
  show_in_sidebar: boolean;
  show_in_navbar: boolean;
  time_format: (typeof TIME_FORMATS)[number];
  show_rate: boolean;
  show_percentage: boolean;
  mqtt_enabled: boolean;
  mqtt_broker: string;
  mqtt_port: number;
  mqtt_username: string;
  mqtt_password: string;
  mqtt_tls_enabled: boolean;
  mqtt_tls_insecure: boolean;
  mqtt_ca_cert: string;
  mqtt_topic_prefix: string;
  mqtt_retain: boolean;
  mqtt_qos: 0 | 1 | 2;
  mqtt_keepalive: number;
  history_max_age: number;
  history_max_samples: number;
  exponential_window: number;
  linear_window: number;
  exponential_max_tau: number;
  calculation_interval: number;
  cleanup_interval: number;
  debug_logging: boolean;
  cooling_target_tool: number;
  cooling_target_bed: number;
  cooling_target_chamber: number;
}
