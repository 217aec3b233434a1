/**
 * Presets as the dashboard exposes them: list, get (404 when unknown), save (validated with
 * the command line's parser, 400 for bad values) and delete.
 *
 * @module
 */
import { parseFlags } from "../cli/mod.ts";
import {
  type BrokenPreset,
  deletePreset,
  listPresets,
  type Preset,
  type PresetValues,
  savePreset,
  validatePresetName,
} from "../config/mod.ts";
import { badRequest, NotFoundError, UnprocessableError } from "../error.ts";
import { bodyToArgs } from "./args.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** Every usable preset: built-ins first, then the user's. */
export async function presetList(presetsDir: string): Promise<Preset[]> {
  return (await listPresets(presetsDir)).presets;
}

/** Every usable preset and the user files that cannot be used (each with its reason). */
export async function presetIndex(
  presetsDir: string,
): Promise<{ presets: Preset[]; broken: BrokenPreset[] }> {
  const { presets, broken } = await listPresets(presetsDir);
  return { presets, broken };
}

/**
 * One preset.
 *
 * @throws {NotFoundError} when there is no preset of that name, {UnprocessableError} when its file cannot be used.
 */
export async function presetGet(presetsDir: string, name: string): Promise<Preset> {
  validatePresetName(name);
  const { presets, broken } = await listPresets(presetsDir);
  const found = presets.find((p) => p.name === name);
  if (found) return found;
  const bad = broken.find((b) => b.name === name);
  if (bad) throw new UnprocessableError(bad.error, { code: "invalid_preset" });
  throw new NotFoundError(`Cannot find preset '${name}'`, { code: "not_found" });
}

/**
 * Saves `{name, values}` (or `{name, config}`) as a user preset; the values must be valid
 * benchmark arguments.
 *
 * @throws {UsageError} for a bad name or value, {ConflictError} for a built-in name.
 */
export async function presetSave(
  presetsDir: string,
  body: Record<string, unknown>,
): Promise<Preset> {
  const name = body.name;
  if (typeof name !== "string") throw badRequest("Cannot save preset: 'name' is required");
  validatePresetName(name);
  const raw = body.values ?? body.config ?? {};
  if (!isPlainObject(raw)) {
    throw badRequest("Cannot save preset: 'values' must be an object");
  }
  const values: PresetValues = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === null || v === "") continue;
    if (k === "preset") throw badRequest("Cannot save preset: a preset cannot name a preset");
    values[k.replace(/-/g, "_")] = Array.isArray(v) ? v.join(",") : v as string;
  }
  parseFlags(bodyToArgs(values));
  await savePreset(presetsDir, name, values);
  return await presetGet(presetsDir, name);
}

/** Deletes a user preset. @throws {NotFoundError} when missing, {ConflictError} for a built-in. */
export async function presetDelete(presetsDir: string, name: string): Promise<void> {
  await deletePreset(presetsDir, name);
}
