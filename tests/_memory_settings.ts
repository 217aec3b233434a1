/**
 * In-memory settings of one plugin for tests, validated by the plugin's own descriptor as the
 * host's settings store does.
 *
 * @module
 */
import type { PluginDescriptor, Settings, SettingsAccess } from "../lib/host/plugin.ts";

/** A {@linkcode SettingsAccess} over a plain object. */
export class MemorySettings implements SettingsAccess {
  #plugin: Pick<PluginDescriptor, "settingsDefaults" | "validateSettings">;
  #current: Settings;
  #listeners = new Set<(next: Settings, previous: Settings) => void>();

  constructor(
    plugin: Pick<PluginDescriptor, "settingsDefaults" | "validateSettings">,
    initial: Settings = {},
  ) {
    this.#plugin = plugin;
    this.#current = plugin.validateSettings({
      ...structuredClone(plugin.settingsDefaults),
      ...initial,
    });
  }

  get(): Settings {
    return structuredClone(this.#current);
  }

  update(partial: Settings): Promise<Settings> {
    const previous = this.#current;
    this.#current = this.#plugin.validateSettings({ ...structuredClone(previous), ...partial });
    for (const l of [...this.#listeners]) l(this.get(), structuredClone(previous));
    return Promise.resolve(this.get());
  }

  onChange(listener: (next: Settings, previous: Settings) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
