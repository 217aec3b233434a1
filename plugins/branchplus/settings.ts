/**
 * The plugin's settings: hub address, reconnect bounds, engine options and the ten channel
 * configurations, as one schema ({@linkcode BRANCH_SCHEMA}): a candidate (defaults + stored +
 * update) becomes typed, normalised settings, or a 400 naming the setting.
 *
 * @module
 */
import * as v from "valibot";
import { deepMerge } from "../../lib/config/mod.ts";
import type { Settings } from "../../lib/host/mod.ts";
import {
  boolean,
  choice,
  integer,
  number,
  object,
  parseSettings,
  rule,
  text,
} from "../../lib/schema/mod.ts";
import {
  applyChannelPatch,
  CHANNEL_PATCH,
  type ChannelConfig,
  defaultChannelConfig,
  numeric,
} from "./channel_config.ts";
import { PLUGIN_ID } from "./id.ts";
import { channelKey, type ChannelKind, findSlot, LAYOUT } from "./layout.ts";
import { isPlainObject } from "../../lib/shared/json_object.ts";

/** Settings version stored beside the settings. */
export const SETTINGS_VERSION = 1;

/** How the rule verdict and the temperature verdict combine. */
export type CombineLogic = "temp_override" | "and" | "or";
/** What happens on the first connection to the hub. */
export type StartupBehaviour = "leave" | "all_off" | "restore";

/**
 * The stored channel entries (each names its channel and any of its fields) as the ten channel
 * configurations in layout order, missing ones at their defaults.
 */
const CHANNELS = v.pipe(
  v.array(CHANNEL_PATCH, "a list of channel entries"),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const byKey = new Map<string, ChannelConfig>();
    for (const [index, entry] of dataset.value.entries()) {
      const slot = findSlot(entry.kind, entry.id);
      const key = slot ? channelKey(slot.kind, slot.id) : "";
      const problem = !slot
        ? `names no channel of the hub ('${entry.kind} ${entry.id}')`
        : byKey.has(key)
        ? `repeats channel '${slot.kind} ${slot.id}'`
        : null;
      if (problem !== null || !slot) {
        addIssue({
          message: `Setting 'channels[${index}]' ${problem}`,
          path: [{
            type: "array",
            origin: "value",
            input: dataset.value,
            key: index,
            value: entry,
          }],
        });
        return NEVER;
      }
      byKey.set(key, applyChannelPatch(defaultChannelConfig(slot.kind, slot.id), entry));
    }
    return LAYOUT.map((slot) =>
      byKey.get(channelKey(slot.kind, slot.id)) ?? defaultChannelConfig(slot.kind, slot.id)
    );
  }),
);

/** Every setting of the branch controller (version 1). */
const FIELDS = object({
  /** Hub host name or address; empty means no hub (the client is not started). */
  host: v.optional(
    v.pipe(text(), v.trim(), v.check((h) => !/[\s/]/.test(h), "a host name or address")),
    "",
  ),
  /** Hub WebSocket port. */
  port: v.optional(numeric(integer({ min: 1, max: 65535 })), 80),
  /** Hub WebSocket path, starting with `/`. */
  path: v.optional(
    v.pipe(text(), v.check((p) => p.startsWith("/"), "a path starting with '/'")),
    "/ws",
  ),
  /** First reconnect delay in seconds. */
  reconnect_min: v.optional(numeric(number({ min: 1, max: 3600 })), 1),
  /** Longest reconnect delay in seconds (at least `reconnect_min`). */
  reconnect_max: v.optional(numeric(number({ min: 1, max: 3600 })), 3),
  /** When false the engine does nothing, not even manual enforcement. */
  automation_enabled: v.optional(boolean(), true),
  combine_logic: v.optional(choice(["temp_override", "and", "or"]), "temp_override"),
  /** °C below the threshold at which an active temperature rule releases. */
  temp_hysteresis: v.optional(numeric(number({ min: 0, max: 100 })), 2),
  /** Seconds between two engine switches of the same channel. */
  min_switch_interval: v.optional(numeric(number({ min: 0, max: 3600 })), 3),
  /** The panel asks before switching a 24 V channel on. */
  confirm_high_power: v.optional(boolean(), true),
  startup_behaviour: v.optional(choice(["leave", "all_off", "restore"]), "leave"),
  /**
   * Seconds the hub may be lost before its outputs take their failsafe state on its return (a
   * shorter loss is only re-synced).
   */
  failsafe_grace: v.optional(numeric(number({ min: 1, max: 86400 })), 60),
  /**
   * Seconds the host may be down (crashed, not back yet) before its launcher switches the
   * outputs to their failsafe states.
   */
  host_down_grace: v.optional(numeric(number({ min: 1, max: 86400 })), 60),
  /** The ten channel configurations, in layout order. */
  channels: v.optional(CHANNELS, []),
}, "an object");

/** The typed settings of the branch controller. */
export type BranchSettings = v.InferOutput<typeof FIELDS>;

/** The whole settings schema: the fields, then the cross-setting rule. */
export const BRANCH_SCHEMA = v.pipe(
  FIELDS,
  rule<BranchSettings>(
    "reconnect_max",
    (s) =>
      s.reconnect_max < s.reconnect_min
        ? `Setting 'reconnect_max' must not be below 'reconnect_min' (${s.reconnect_min}): got ${s.reconnect_max}`
        : null,
  ),
);

/** The full default settings tree. */
export function defaultSettings(): BranchSettings {
  return validateBranchSettings({});
}

/**
 * Validates a complete candidate and returns it normalised (missing keys take their defaults,
 * channels come back in layout order, all ten present).
 *
 * @throws {SettingError} naming the first invalid setting.
 */
export function validateBranchSettings(candidate: unknown): BranchSettings {
  return parseSettings(BRANCH_SCHEMA, candidate, { owner: PLUGIN_ID });
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
 * const current = defaultSettings();
 * const next = validateBranchSettings(
 *   mergeBranchUpdate(current, { channels: [{ kind: "usb", id: 2, label: "Fan" }] }),
 * );
 * assert.deepEqual(next.channels.slice(0, 2).map((c) => c.label), ["USB 1", "Fan"]);
 * ```
 */
export function mergeBranchUpdate(current: BranchSettings, partial: Settings): Settings {
  const out: Settings = structuredClone(current);
  for (const [key, value] of Object.entries(partial)) {
    if (value === null || value === undefined) continue; // the one merge rule: null keeps
    if (key !== "channels") out[key] = structuredClone(value);
    else if (isPlainObject(value) && Object.keys(value).length === 1 && "replace" in value) {
      out.channels = structuredClone(value.replace);
    } else if (!Array.isArray(value)) out.channels = structuredClone(value);
    else out.channels = mergeChannels(out.channels, value);
  }
  return out;
}

function mergeChannels(current: unknown, updates: unknown[]): unknown[] {
  const channels = Array.isArray(current) ? structuredClone(current) as unknown[] : [];
  for (const entry of updates) {
    const index = isPlainObject(entry)
      ? channels.findIndex((c) =>
        isPlainObject(c) && c.kind === entry.kind && String(c.id) === String(entry.id)
      )
      : -1;
    if (index < 0) channels.push(structuredClone(entry));
    else if (isPlainObject(channels[index]) && isPlainObject(entry)) {
      channels[index] = deepMerge(channels[index], entry);
    }
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
