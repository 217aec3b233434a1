/**
 * In-memory settings of one plugin for tests, validated by the plugin's own descriptor as the
 * host's settings store does.
 *
 * @module
 */
import type { PluginDescriptor, Settings, SettingsAccess } from "../lib/host/plugin.ts";

/** A {@linkcode SettingsAccess} over a plain object. */
export class MemorySettings implements SettingsAccess {
  #plugin: Pick<PluginDescriptor, "settingsDefaults" | "validateSettings" | "mergeSettingsUpdate">;
  #current: Settings;
  #listeners = new Set<(next: Settings, previous: Settings) => void>();

  constructor(
    plugin: Pick<PluginDescriptor, "settingsDefaults" | "validateSettings" | "mergeSettingsUpdate">,
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

  // deno-lint-ignore require-await -- a refused update rejects, as the host's store does
  async update(partial: Settings): Promise<Settings> {
    const previous = this.#current;
    const merged = this.#plugin.mergeSettingsUpdate?.(previous, partial) ??
      { ...structuredClone(previous), ...partial };
    this.#current = this.#plugin.validateSettings(merged);
    for (const l of [...this.#listeners]) l(this.get(), structuredClone(previous));
    return this.get();
  }

  onChange(listener: (next: Settings, previous: Settings) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
