/**
 * The plugin's settings: hub address, reconnect bounds, engine options and the ten channel
 * configurations. {@linkcode validateBranchSettings} turns a candidate (defaults + stored + update)
 * into typed, normalised settings or throws `AppError` 400 naming the setting.
 *
 * @module
 */
import type { Settings } from "../../lib/host/plugin.ts";
import { mergeSettings } from "../../lib/host/settings/merge.ts";
import {
  type ChannelConfig,
  defaultChannelConfig,
  invalid,
  isRecord,
  oneOf,
  parseChannelConfig,
} from "./channel_config.ts";
import { channelKey, type ChannelKind, findSlot, LAYOUT } from "./layout.ts";

/** Settings version stored beside the settings. */
export const SETTINGS_VERSION = 1;

/** How the rule verdict and the temperature verdict combine. */
export type CombineLogic = "temp_override" | "and" | "or";
/** What happens on the first connection to the hub. */
export type StartupBehaviour = "leave" | "all_off" | "restore";

/** The typed settings of the branch controller. */
export interface BranchSettings {
  /** Hub host name or address; empty means no hub (the client is not started). */
  host: string;
  /** Hub WebSocket port. */
  port: number;
  /** Hub WebSocket path, starting with `/`. */
  path: string;
  /** First reconnect delay in seconds (at least 1). */
  reconnect_min: number;
  /** Longest reconnect delay in seconds (at least `reconnect_min`). */
  reconnect_max: number;
  /** When false the engine does nothing, not even manual enforcement. */
  automation_enabled: boolean;
  combine_logic: CombineLogic;
  /** °C below the threshold at which an active temperature rule releases. */
  temp_hysteresis: number;
  /** Seconds between two engine switches of the same channel. */
  min_switch_interval: number;
  /** The panel asks before switching a 24 V channel on. */
  confirm_high_power: boolean;
  startup_behaviour: StartupBehaviour;
  /**
   * Seconds the hub may be lost before its outputs take their failsafe state on its return (a
   * shorter loss is only re-synced).
   */
  failsafe_grace: number;
  /** The ten channel configurations, in layout order. */
  channels: ChannelConfig[];
}

/** The full default settings tree. */
export function defaultSettings(): BranchSettings {
  return {
    host: "",
    port: 80,
    path: "/ws",
    reconnect_min: 1,
    reconnect_max: 30,
    automation_enabled: true,
    combine_logic: "temp_override",
    temp_hysteresis: 2,
    min_switch_interval: 3,
    confirm_high_power: true,
    startup_behaviour: "leave",
    failsafe_grace: 60,
    channels: LAYOUT.map((slot) => defaultChannelConfig(slot.kind, slot.id)),
  };
}

/**
 * Validates a complete candidate and returns it normalised (missing keys take their defaults,
 * channels come back in layout order, all ten present).
 *
 * @throws {AppError} 400 naming the first invalid setting.
 */
export function validateBranchSettings(candidate: Settings): BranchSettings {
  const d = defaultSettings();
  const get = (key: keyof BranchSettings) => key in candidate ? candidate[key] : d[key];
  const host = get("host");
  if (typeof host !== "string") throw invalid("host", "must be a string");
  if (/[\s/]/.test(host.trim())) throw invalid("host", "must be a host name or address");
  const path = get("path");
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw invalid("path", "must start with '/'");
  }
  const reconnectMin = number(get("reconnect_min"), "reconnect_min", 1, 3600);
  return {
    host: host.trim(),
    port: integer(get("port"), "port", 1, 65535),
    path,
    reconnect_min: reconnectMin,
    reconnect_max: number(get("reconnect_max"), "reconnect_max", reconnectMin, 3600),
    automation_enabled: boolean(get("automation_enabled"), "automation_enabled"),
    combine_logic: oneOf(get("combine_logic"), ["temp_override", "and", "or"], "combine_logic"),
    temp_hysteresis: number(get("temp_hysteresis"), "temp_hysteresis", 0, 100),
    min_switch_interval: number(get("min_switch_interval"), "min_switch_interval", 0, 3600),
    confirm_high_power: boolean(get("confirm_high_power"), "confirm_high_power"),
    startup_behaviour: oneOf(
      get("startup_behaviour"),
      ["leave", "all_off", "restore"],
      "startup_behaviour",
    ),
    failsafe_grace: number(get("failsafe_grace"), "failsafe_grace", 1, 86400),
    channels: parseChannels(get("channels")),
  };
}

/** The stored configuration of one channel. */
export function channelConfigOf(
  settings: BranchSettings,
  kind: ChannelKind,
  id: number,
): ChannelConfig {
  return settings.channels.find((c) => c.kind === kind && c.id === id) ??
    defaultChannelConfig(kind, id);
}

/**
 * Merges a settings update: `channels` entries merge into the stored channel of the same `kind`
 * and `id` (fields not given stay as they are; `[]` changes nothing); `{"channels": {"replace":
 * [...]}}` replaces the whole list (channels not listed take their defaults). Other keys replace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultSettings, mergeBranchUpdate, validateBranchSettings } from "./settings.ts";
 * const current = defaultSettings() as unknown as Record<string, unknown>;
 * const next = validateBranchSettings(
 *   mergeBranchUpdate(current, { channels: [{ kind: "usb", id: 2, label: "Fan" }] }),
 * );
 * assert.deepEqual(next.channels.slice(0, 2).map((c) => c.label), ["USB 1", "Fan"]);
 * ```
 */
export function mergeBranchUpdate(current: Settings, partial: Settings): Settings {
  const out: Settings = structuredClone(current);
  for (const [key, value] of Object.entries(partial)) {
    if (key !== "channels") out[key] = structuredClone(value);
    else if (isRecord(value) && Object.keys(value).length === 1 && "replace" in value) {
      out.channels = structuredClone(value.replace);
    } else if (!Array.isArray(value)) out.channels = structuredClone(value);
    else out.channels = mergeChannels(out.channels, value);
  }
  return out;
}

function mergeChannels(current: unknown, updates: unknown[]): unknown[] {
  const channels = Array.isArray(current) ? structuredClone(current) as unknown[] : [];
  for (const entry of updates) {
    const index = isRecord(entry)
      ? channels.findIndex((c) =>
        isRecord(c) && c.kind === entry.kind && String(c.id) === String(entry.id)
      )
      : -1;
    if (index < 0) channels.push(structuredClone(entry));
    else channels[index] = mergeSettings(channels[index] as Settings, entry as Settings);
  }
  return channels;
}

/** The `host:port` the hub needs network access to (IPv6 bracketed). */
export function hubNetTarget(host: string, port: number): string {
  return `${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`;
}

/** The WebSocket URL of the hub. */
export function hubUrl(host: string, port: number, path: string): string {
  const name = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `ws://${name}:${port}${path}`;
}

function parseChannels(value: unknown): ChannelConfig[] {
  if (!Array.isArray(value)) throw invalid("channels", "must be a list of channel entries");
  const byKey = new Map<string, ChannelConfig>();
  value.forEach((entry, index) => {
    const field = `channels[${index}]`;
    if (!isRecord(entry)) throw invalid(field, "must be an object");
    const slot = findSlot(entry.kind, entry.id);
    if (!slot) throw invalid(field, `names no channel of the hub ('${entry.kind} ${entry.id}')`);
    const key = channelKey(slot.kind, slot.id);
    if (byKey.has(key)) throw invalid(field, `repeats channel '${slot.kind} ${slot.id}'`);
    byKey.set(key, parseChannelConfig(entry, defaultChannelConfig(slot.kind, slot.id), field));
  });
  return LAYOUT.map((slot) =>
    byKey.get(channelKey(slot.kind, slot.id)) ?? defaultChannelConfig(slot.kind, slot.id)
  );
}

function number(value: unknown, field: string, min: number, max: number): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n)) throw invalid(field, "must be a number");
  if (n < min || n > max) throw invalid(field, `must be between ${min} and ${max}`);
  return n;
}

function integer(value: unknown, field: string, min: number, max: number): number {
  const n = number(value, field, min, max);
  if (!Number.isInteger(n)) throw invalid(field, "must be a whole number");
  return n;
}

function boolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw invalid(field, "must be true or false");
  return value;
}
