/**
 * Reading the plugins' stored settings out of a config.yaml document: migration to the current
 * version, then validation that keeps every valid value. A stored value the plugin refuses is
 * dropped (its default applies) and reported once, naming the setting; the other values still
 * apply. Pure: the settings store (which logs and writes back) and the launcher (which derives
 * the permission scope before any plugin starts) share it.
 *
 * @module
 */
import { deepMerge } from "../../config/mod.ts";
import { messageOf } from "../../error.ts";
import { SettingError } from "../../schema/mod.ts";
import type { ConfigDoc } from "../config_file.ts";
import type { PluginDescriptor, Settings } from "../plugin.ts";
import { settingsDefaults, validateSettings } from "./validate.ts";
import { isPlainObject } from "../../shared/json_object.ts";

/** The key beside a plugin's settings that holds their version. */
export const VERSION_KEY = "_version";

/** One stored value that was not used. */
export interface StoredProblem {
  plugin: string;
  /** The setting as the plugin named it (`algorithm`, `channels[3].mode`), or null for all. */
  setting: string | null;
  message: string;
}

/** What {@linkcode readStoredSettings} found. */
export interface StoredSettings {
  /** Validated settings per plugin id (defaults applied). */
  settings: Map<string, Settings>;
  /** Plugins whose stored settings were of an older version (to be written back). */
  migrated: { id: string; from: number; to: number }[];
  /** Stored values that were dropped. */
  problems: StoredProblem[];
}

/** The settings an error names: its `setting`, then the quoted names of its message. */
export function namesIn(err: unknown): string[] {
  const quoted = [...messageOf(err).matchAll(/'([A-Za-z_][\w.[\]]*)'/g)].map((m) => m[1]!);
  return err instanceof SettingError && err.setting !== null ? [err.setting, ...quoted] : quoted;
}

/** `channels[3].mode` → `["channels", 3, "mode"]`. */
function pathOf(setting: string): (string | number)[] {
  return setting.split(/[.[\]]+/).filter((p) => p !== "").map((p) =>
    /^\d+$/.test(p) ? Number(p) : p
  );
}

/** Removes the value at `path` from `values`; returns whether it was there. */
function removeAt(values: Settings, path: (string | number)[]): boolean {
  let node: unknown = values;
  for (const part of path.slice(0, -1)) {
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<string | number, unknown>)[part];
  }
  const last = path[path.length - 1]!;
  if (node === null || typeof node !== "object" || !(last in node)) return false;
  delete (node as Record<string | number, unknown>)[last];
  return true;
}

/**
 * Validates stored values over the defaults, dropping each value the plugin refuses (the
 * setting the error names, innermost first, then its top-level key) until the rest validates.
 */
export function validateStored<S extends Settings>(
  plugin: PluginDescriptor<S>,
  stored: Settings,
): { settings: S; problems: StoredProblem[] } {
  const values = structuredClone(stored);
  const defaults = settingsDefaults(plugin);
  const problems: StoredProblem[] = [];
  const limit = JSON.stringify(values).length + 2;
  for (let attempt = 0; attempt < limit; attempt++) {
    try {
      return { settings: validateSettings(plugin, deepMerge(defaults, values)), problems };
    } catch (err) {
      const message = messageOf(err);
      const names = namesIn(err);
      const setting = names.find((n) => removeAt(values, pathOf(n))) ??
        names.find((n) => removeAt(values, pathOf(n).slice(0, 1)));
      if (setting !== undefined) {
        problems.push({ plugin: plugin.id, setting, message });
        continue;
      }
      problems.push({ plugin: plugin.id, setting: null, message });
      break;
    }
  }
  return { settings: defaults, problems };
}

/**
 * Reads, migrates and validates every plugin's section of `doc.plugins`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readStoredSettings } from "./stored.ts";
 * const r = readStoredSettings({}, []);
 * assert.equal(r.problems.length, 0);
 * ```
 */
export function readStoredSettings(doc: ConfigDoc, plugins: PluginDescriptor[]): StoredSettings {
  const stored = isPlainObject(doc.plugins) ? doc.plugins : {};
  const out: StoredSettings = { settings: new Map(), migrated: [], problems: [] };
  for (const p of plugins) {
    const raw = stored[p.id];
    let values: Settings = isPlainObject(raw) ? structuredClone(raw) : {};
    const version = isPlainObject(raw)
      ? (typeof raw[VERSION_KEY] === "number" ? raw[VERSION_KEY] as number : 1)
      : p.settingsVersion;
    delete values[VERSION_KEY];
    if (version < p.settingsVersion && p.migrateSettings) {
      values = p.migrateSettings(values, version);
      out.migrated.push({ id: p.id, from: version, to: p.settingsVersion });
    }
    const { settings, problems } = validateStored(p, values);
    out.settings.set(p.id, settings);
    out.problems.push(...problems);
  }
  return out;
}
