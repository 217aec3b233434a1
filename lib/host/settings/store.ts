/**
 * The settings store: each plugin's settings live in config.yaml under `plugins.<id>` (only the
 * values that differ from the defaults, plus `_version`). Loading migrates old versions through
 * the plugin's hook; saving validates through the plugin and writes the file atomically.
 *
 * @module
 */
import { NotFoundError, UsageError } from "../../error.ts";
import type { Logger } from "../../log.ts";
import type { ConfigDoc, ConfigFile } from "../config_file.ts";
import type { PluginDescriptor, Settings, SettingsAccess } from "../plugin.ts";
import { readStoredSettings, VERSION_KEY } from "./stored.ts";
import { mergeUpdate, settingsDefaults, validateSettings } from "./validate.ts";
import { isPlainObject } from "../../shared/json_object.ts";

type Listener = (next: Settings, previous: Settings) => void;

export { VERSION_KEY };

function diff(settings: Settings, defaults: Settings): Settings {
  const out: Settings = {};
  for (const [key, value] of Object.entries(settings)) {
    if (JSON.stringify(value) !== JSON.stringify(defaults[key])) out[key] = value;
  }
  return out;
}

function pluginsOf(doc: ConfigDoc): Record<string, unknown> {
  if (!isPlainObject(doc.plugins)) doc.plugins = {};
  return doc.plugins as Record<string, unknown>;
}

/** Settings of every plugin of the host. */
export class SettingsStore {
  #file: ConfigFile;
  #secrets: ConfigFile | undefined;
  #logger: Logger;
  #plugins = new Map<string, PluginDescriptor>();
  #current = new Map<string, Settings>();
  #listeners = new Map<string, Set<Listener>>();

  /**
   * @param file config.yaml
   * @param secrets where the plugins' restricted settings (passwords) are kept instead of
   *   config.yaml: a separate file written with mode 0600. Without it they stay in config.yaml.
   */
  constructor(
    file: ConfigFile,
    plugins: PluginDescriptor[],
    logger: Logger,
    secrets?: ConfigFile,
  ) {
    this.#file = file;
    this.#secrets = secrets;
    this.#logger = logger;
    for (const p of plugins) this.#plugins.set(p.id, p);
  }

  /**
   * Reads config.yaml, migrates older versions (and writes them back atomically) and validates
   * every plugin's settings. A stored value a plugin refuses is reported once, naming the
   * setting, and its default applies; the plugin's other values still do.
   */
  async load(): Promise<void> {
    const { doc, moved } = await this.#readWithSecrets();
    const { settings, migrated, problems } = readStoredSettings(doc, [...this.#plugins.values()]);
    for (const [id, values] of settings) this.#current.set(id, values);
    for (const { id, from, to } of migrated) {
      this.#logger.info(`Migrated settings of ${id} from version ${from} to ${to}`);
    }
    for (const problem of problems) {
      this.#logger.warn(
        problem.setting === null
          ? `Ignoring the stored settings of ${problem.plugin}, using its defaults: ${problem.message}`
          : `Ignoring stored setting '${problem.setting}' of ${problem.plugin}, using its default: ${problem.message}`,
      );
    }
    const rewrite = new Set([...migrated.map((m) => m.id), ...moved]);
    for (const id of moved) {
      this.#logger.info(`Moved the restricted settings of ${id} to ${this.#secrets!.path}`);
    }
    if (rewrite.size > 0) await this.#persist([...rewrite]);
  }

  /** config.yaml with each plugin's secrets merged in, and the plugins whose secrets were still in it. */
  async #readWithSecrets(): Promise<{ doc: ConfigDoc; moved: string[] }> {
    const doc = await this.#file.read();
    if (!this.#secrets) return { doc, moved: [] };
    const secrets = pluginsOf(await this.#secrets.read());
    const plugins = pluginsOf(doc);
    const moved: string[] = [];
    for (const p of this.#plugins.values()) {
      const section = plugins[p.id];
      if (isPlainObject(section) && (p.restrictedSettings ?? []).some((k) => k in section)) {
        moved.push(p.id);
      }
      const secret = secrets[p.id];
      if (isPlainObject(secret)) {
        plugins[p.id] = { ...(isPlainObject(section) ? section : {}), ...secret };
      }
    }
    return { doc, moved };
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
   * Which restricted settings (passwords) hold a value, per plugin that has any: what a settings
   * form shows ("set" / "not set") without ever seeing the value.
   */
  secretsView(): Record<string, Record<string, boolean>> {
    const out: Record<string, Record<string, boolean>> = {};
    for (const p of this.#plugins.values()) {
      const keys = p.restrictedSettings ?? [];
      if (keys.length === 0) continue;
      const s = this.#settingsOf(p.id);
      out[p.id] = Object.fromEntries(
        keys.map((k) => [k, s[k] !== undefined && s[k] !== null && s[k] !== ""]),
      );
    }
    return out;
  }

  /**
   * Validates updates of several plugins, then saves them in one atomic write.
   *
   * @throws {UsageError} for an unknown plugin or an invalid setting (nothing is saved).
   */
  async updateMany(updates: Record<string, unknown>): Promise<void> {
    const next = new Map<string, Settings>();
    for (const [id, partial] of Object.entries(updates)) {
      const p = this.#plugins.get(id);
      if (!p) throw new UsageError(`Unknown plugin '${id}' in settings`);
      if (!isPlainObject(partial)) throw new UsageError(`Settings of '${id}' must be an object`);
      next.set(id, validateSettings(p, mergeUpdate(p, this.#settingsOf(id), partial)));
    }
    await this.#commit(next);
  }

  /** Resets a plugin to its defaults (removes its section from config.yaml). */
  async reset(id: string): Promise<Settings> {
    const p = this.#plugins.get(id);
    if (!p) throw new NotFoundError(`Unknown plugin '${id}'`);
    const defaults = settingsDefaults(p);
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
    if (!s) throw new NotFoundError(`Unknown plugin '${id}'`);
    return s;
  }

  async #commit(next: Map<string, Settings>, removeSections = false): Promise<void> {
    const previous = new Map([...next.keys()].map((id) => [id, this.#settingsOf(id)]));
    const split = new Map<string, { open: Settings; secret: Settings }>();
    for (const [id, settings] of next) {
      const p = this.#plugins.get(id)!;
      const open = diff(settings, settingsDefaults(p));
      const secret: Settings = {};
      for (const key of this.#secrets ? p.restrictedSettings ?? [] : []) {
        if (key in open) secret[key] = open[key];
        delete open[key];
      }
      split.set(id, { open, secret });
    }
    await this.#secrets?.update((doc) => {
      const plugins = pluginsOf(doc);
      for (const [id, { secret }] of split) {
        if (removeSections || Object.keys(secret).length === 0) delete plugins[id];
        else plugins[id] = secret;
      }
    });
    await this.#file.update((doc) => {
      const plugins = pluginsOf(doc);
      for (const [id, { open }] of split) {
        const p = this.#plugins.get(id)!;
        if (removeSections) delete plugins[id];
        else plugins[id] = { [VERSION_KEY]: p.settingsVersion, ...open };
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
