/**
 * The settings store: each plugin's settings live in config.yaml under `plugins.<id>` (only the
 * values that differ from the defaults, plus `_version`). Loading migrates old versions through
 * the plugin's hook; saving validates through the plugin and writes the file atomically.
 *
 * @module
 */
import { AppError } from "../../error.ts";
import type { Logger } from "../../log.ts";
import type { ConfigDoc, ConfigFile } from "../config_file.ts";
import type { PluginDescriptor, Settings, SettingsAccess } from "../plugin.ts";

type Listener = (next: Settings, previous: Settings) => void;

/** The key beside a plugin's settings that holds their version. */
export const VERSION_KEY = "_version";

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Deep-merges plain objects (arrays and other values are replaced). */
export function mergeSettings(base: Settings, over: Settings): Settings {
  const out: Settings = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    out[key] = isObject(prev) && isObject(value)
      ? mergeSettings(prev, value)
      : structuredClone(value);
  }
  return out;
}

function diff(settings: Settings, defaults: Settings): Settings {
  const out: Settings = {};
  for (const [key, value] of Object.entries(settings)) {
    if (JSON.stringify(value) !== JSON.stringify(defaults[key])) out[key] = value;
  }
  return out;
}

function pluginsOf(doc: ConfigDoc): Record<string, unknown> {
  if (!isObject(doc.plugins)) doc.plugins = {};
  return doc.plugins as Record<string, unknown>;
}

/** Settings of every plugin of the host. */
export class SettingsStore {
  #file: ConfigFile;
  #logger: Logger;
  #plugins = new Map<string, PluginDescriptor>();
  #current = new Map<string, Settings>();
  #listeners = new Map<string, Set<Listener>>();

  constructor(file: ConfigFile, plugins: PluginDescriptor[], logger: Logger) {
    this.#file = file;
    this.#logger = logger;
    for (const p of plugins) this.#plugins.set(p.id, p);
  }

  /** Reads config.yaml, migrates and validates every plugin's settings (invalid → defaults). */
  async load(): Promise<void> {
    const doc = await this.#file.read();
    const stored = pluginsOf(doc);
    const migrated: string[] = [];
    for (const p of this.#plugins.values()) {
      const raw = stored[p.id];
      let values: Settings = isObject(raw) ? structuredClone(raw) : {};
      const version = isObject(raw)
        ? (typeof raw[VERSION_KEY] === "number" ? raw[VERSION_KEY] as number : 1)
        : p.settingsVersion;
      delete values[VERSION_KEY];
      if (version < p.settingsVersion && p.migrateSettings) {
        values = p.migrateSettings(values, version);
        migrated.push(p.id);
        this.#logger.info(
          `Migrated settings of ${p.id} from version ${version} to ${p.settingsVersion}`,
        );
      }
      try {
        this.#current.set(p.id, p.validateSettings(mergeSettings(p.settingsDefaults, values)));
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        this.#logger.warn(`Settings of ${p.id} are invalid, using defaults: ${msg}`);
        this.#current.set(p.id, p.validateSettings(structuredClone(p.settingsDefaults)));
      }
    }
    if (migrated.length > 0) await this.#persist(migrated);
  }

  /** The current settings of a plugin. */
  get(id: string): Settings {
    return structuredClone(this.#settingsOf(id));
  }

  /** Every plugin's settings without its restricted keys (for `GET /api/settings`). */
  publicView(): Record<string, Settings> {
    const out: Record<string, Settings> = {};
    for (const p of this.#plugins.values()) {
      const s = this.get(p.id);
      for (const key of p.restrictedSettings ?? []) delete s[key];
      out[p.id] = s;
    }
    return out;
  }

  /**
   * Validates updates of several plugins, then saves them in one atomic write.
   *
   * @throws {AppError} 400 for an unknown plugin or an invalid setting (nothing is saved).
   */
  async updateMany(updates: Record<string, unknown>): Promise<void> {
    const next = new Map<string, Settings>();
    for (const [id, partial] of Object.entries(updates)) {
      const p = this.#plugins.get(id);
      if (!p) throw new AppError(400, `Unknown plugin '${id}' in settings`);
      if (!isObject(partial)) throw new AppError(400, `Settings of '${id}' must be an object`);
      next.set(id, p.validateSettings(mergeSettings(this.#settingsOf(id), partial)));
    }
    await this.#commit(next);
  }

  /** Resets a plugin to its defaults (removes its section from config.yaml). */
  async reset(id: string): Promise<Settings> {
    const p = this.#plugins.get(id);
    if (!p) throw new AppError(404, `Unknown plugin '${id}'`);
    const defaults = p.validateSettings(structuredClone(p.settingsDefaults));
    await this.#commit(new Map([[id, defaults]]), true);
    return structuredClone(defaults);
  }

  /** The {@linkcode SettingsAccess} a plugin receives in its context. */
  accessFor(id: string): SettingsAccess {
    return {
      get: () => this.get(id),
      update: async (partial) => {
        await this.updateMany({ [id]: partial });
        return this.get(id);
      },
      onChange: (listener) => {
        const set = this.#listeners.get(id) ?? new Set();
        set.add(listener);
        this.#listeners.set(id, set);
        return () => set.delete(listener);
      },
    };
  }

  #settingsOf(id: string): Settings {
    const s = this.#current.get(id);
    if (!s) throw new AppError(404, `Unknown plugin '${id}'`);
    return s;
  }

  async #commit(next: Map<string, Settings>, removeSections = false): Promise<void> {
    const previous = new Map([...next.keys()].map((id) => [id, this.#settingsOf(id)]));
    await this.#file.update((doc) => {
      const plugins = pluginsOf(doc);
      for (const [id, settings] of next) {
        const p = this.#plugins.get(id)!;
        if (removeSections) delete plugins[id];
        else {plugins[id] = {
            [VERSION_KEY]: p.settingsVersion,
            ...diff(settings, p.settingsDefaults),
          };}
      }
    });
    for (const [id, settings] of next) {
      this.#current.set(id, settings);
      for (const listener of this.#listeners.get(id) ?? []) {
        try {
          listener(structuredClone(settings), structuredClone(previous.get(id)!));
        } catch (err) {
          this.#logger.error(`Settings listener of ${id} failed: ${err}`);
        }
      }
    }
  }

  async #persist(ids: string[]): Promise<void> {
    await this.#commit(new Map(ids.map((id) => [id, this.#settingsOf(id)])));
  }
}
