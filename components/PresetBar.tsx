/**
 * The presets' toolbar: pick one (its values fill the form), save the form as one, delete a
 * user preset.
 *
 * @module
 */
import type { BenchForm } from "./bench_form.ts";

/** The presets' toolbar. */
export function PresetBar({ form }: { form: BenchForm }) {
  const preset = form.preset.value;
  const userPreset = form.presets.value.find((p) => p.name === preset && !p.readonly);
  return (
    <div class="toolbar">
      <select
        id="preset"
        aria-label="Preset"
        value={preset}
        onChange={(e) => form.loadPreset((e.target as HTMLSelectElement).value)}
      >
        <option value="">(no preset)</option>
        {form.presets.value.map((p) => (
          <option key={p.name} value={p.name}>{p.name}{p.readonly ? " (built-in)" : ""}</option>
        ))}
      </select>
      <input
        id="preset-name"
        aria-label="Name of the preset to save"
        placeholder="save as…"
        value={form.saveName.value}
        onInput={(e) => form.saveName.value = (e.target as HTMLInputElement).value}
      />
      <button
        type="button"
        id="btn-save-preset"
        disabled={!form.saveName.value}
        onClick={form.savePreset}
      >
        Save preset
      </button>
      <button
        type="button"
        id="btn-delete-preset"
        disabled={!userPreset}
        onClick={form.deletePreset}
      >
        Delete preset
      </button>
    </div>
  );
}
