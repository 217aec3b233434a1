/**
 * In-memory settings of one plugin for tests, validated by the plugin's own schema and merged
 * with its own rule, as the host's settings store does.
 *
 * @module
 */
import type { PluginDescriptor, Settings, SettingsAccess } from "../lib/host/plugin.ts";
import { mergeUpdate, validateSettings } from "../lib/host/settings/validate.ts";

/** A {@linkcode SettingsAccess} over a plain object. */
export class MemorySettings<S extends Settings = Settings> implements SettingsAccess<S> {
  #plugin: PluginDescriptor<S>;
  #current: S;
  #listeners = new Set<(next: S, previous: S) => void>();

  constructor(plugin: PluginDescriptor<S>, initial: Settings = {}) {
    this.#plugin = plugin;
    this.#current = validateSettings(plugin, initial);
  }

  get(): S {
    return structuredClone(this.#current);
  }

  // deno-lint-ignore require-await -- a refused update rejects, as the host's store does
  async update(partial: Settings): Promise<S> {
    const previous = this.#current;
    this.#current = validateSettings(this.#plugin, mergeUpdate(this.#plugin, previous, partial));
    for (const l of [...this.#listeners]) l(this.get(), structuredClone(previous));
    return this.get();
  }

  onChange(listener: (next: S, previous: S) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
