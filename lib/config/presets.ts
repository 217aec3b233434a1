/**
 * Presets: named sets of command-line values. Built-ins are read-only; user presets live in
 * `<config dir>/presets/<name>.json`. A preset maps to command-line arguments, and arguments given
 * explicitly win over the preset's.
 *
 * @module
 */
import { join } from "node:path";
import * as v from "valibot";
import {
  AppError,
  badRequest,
  ConflictError,
  NotFoundError,
  UnprocessableError,
} from "../error.ts";
import { issuePath } from "../schema/mod.ts";
import { writeFileAtomic } from "../fs.ts";
import { readJsonFile } from "./json_file.ts";
import { isPlainObject } from "./merge.ts";

/** A preset's values, keyed by the long option name in snake_case (`runs`, `dev_mode`, ...). */
export type PresetValues = Record<string, string | number | boolean>;

/** A listed preset. */
export interface Preset {
  name: string;
  readonly: boolean;
  values: PresetValues;
}

/** A user preset file that cannot be used; only that preset is affected. */
export interface BrokenPreset {
  name: string;
  /** Why, in one sentence naming `presets/<name>.json` (never the full path or the content). */
  error: string;
}

/** Read-only presets shipped with the tool. `default` is the configuration as it is. */
export const BUILT_IN_PRESETS: Readonly<Record<string, Readonly<PresetValues>>> = {
  default: {},
  quick_test: { runs: 1, context: 1024, dev_mode: true, enable_profiling: true },
  high_quality: { runs: 5, context: 8192, enable_profiling: true, retest: true },
  resource_limited: {
    runs: 3,
    context: 2048,
    max_size: 8,
    n_batch: 256,
    flash_attention: true,
    use_mmap: true,
  },
};

/** Older key names accepted in preset files, mapped to the current ones. */
const LEGACY_KEYS: Readonly<Record<string, string>> = {
  context_length: "context",
  num_runs: "runs",
  top_k_sampling: "top_k",
  top_p_sampling: "top_p",
  min_p_sampling: "min_p",
};

/**
 * A preset file: its values keyed by option name (or wrapped in `{params: {...}}`), each a
 * string, number or boolean; `null` and `""` mean "not set"; older key names are migrated. What
 * each value may be is the command line's business: presets become arguments (see
 * `lib/cli/presets_args.ts`), checked like the user's.
 */
export const PRESET_SCHEMA = v.pipe(
  v.unknown(),
  v.transform((raw) => isPlainObject(raw) && isPlainObject(raw.params) ? raw.params : raw),
  // valibot's record takes an array too: a preset is a JSON object.
  v.check(isPlainObject, "a JSON object"),
  v.record(
    v.string(),
    v.nullable(v.union([v.string(), v.number(), v.boolean()], "a string, number or boolean")),
    "a JSON object",
  ),
  v.transform((values): PresetValues => {
    const out: PresetValues = {};
    for (const [key, value] of Object.entries(values)) {
      if (value !== null && value !== "") out[LEGACY_KEYS[key] ?? key] = value;
    }
    return out;
  }),
);

const NAME = /^[A-Za-z0-9_-]{1,50}$/;

/** Throws a 400 unless `name` is a valid preset name (`[A-Za-z0-9_-]{1,50}`). */
export function validatePresetName(name: string): void {
  if (!NAME.test(name)) {
    throw badRequest(
      `Invalid preset name '${name}': use 1 to 50 letters, digits, '_' or '-'`,
      "invalid_preset_name",
    );
  }
}

function isBuiltIn(name: string): boolean {
  return Object.hasOwn(BUILT_IN_PRESETS, name);
}

/** How messages name a user preset's file. */
function presetLabel(name: string): string {
  return `preset '${name}' (presets/${name}.json)`;
}

/**
 * Normalises a stored preset object with {@linkcode PRESET_SCHEMA}. `source` names the preset in
 * messages (its name, not its path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalisePresetValues } from "./presets.ts";
 * assert.deepEqual(normalisePresetValues({ params: { num_runs: 2, arch: null } }, "p"), { runs: 2 });
 * assert.throws(() => normalisePresetValues({ runs: [2] }, "p"), /'runs' must be a string, number/);
 * assert.throws(() => normalisePresetValues([2], "p"), /it must be a JSON object/);
 * ```
 */
export function normalisePresetValues(raw: unknown, source: string): PresetValues {
  const result = v.safeParse(PRESET_SCHEMA, raw, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const key = issuePath(issue);
  throw new UnprocessableError(
    key === ""
      ? `Invalid preset '${source}': it must be ${issue.message}`
      : `Invalid preset '${source}': '${key}' must be ${issue.message}`,
    { code: "invalid_preset" },
  );
}

/** Where user presets live. */
export function presetPath(presetsDir: string, name: string): string {
  validatePresetName(name);
  return join(presetsDir, `${name}.json`);
}

/** Reads one user preset file; undefined when it does not exist. */
async function readUserPreset(presetsDir: string, name: string): Promise<Preset | undefined> {
  const raw = await readJsonFile(join(presetsDir, `${name}.json`), presetLabel(name));
  if (raw === undefined) return undefined;
  return { name, readonly: false, values: normalisePresetValues(raw, name) };
}

/**
 * Lists presets: `default`, then the other built-ins sorted, then user presets sorted. User files
 * with a built-in name or an invalid name are left out (returned in `ignored`); a file that cannot
 * be read or used is returned in `broken` with its reason and affects no other preset.
 */
export async function listPresets(
  presetsDir: string,
): Promise<{ presets: Preset[]; ignored: string[]; broken: BrokenPreset[] }> {
  const builtIns = Object.keys(BUILT_IN_PRESETS).sort((a, b) =>
    a === "default" ? -1 : b === "default" ? 1 : a.localeCompare(b)
  );
  const presets: Preset[] = builtIns.map((name) => ({
    name,
    readonly: true,
    values: { ...BUILT_IN_PRESETS[name] },
  }));
  const ignored: string[] = [];
  const broken: BrokenPreset[] = [];
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(presetsDir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const name = entry.name.slice(0, -5);
      if (!NAME.test(name) || isBuiltIn(name)) ignored.push(entry.name);
      else names.push(name);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  for (const name of names.sort()) {
    try {
      const preset = await readUserPreset(presetsDir, name);
      if (preset) presets.push(preset);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      broken.push({ name, error: err.message });
    }
  }
  return { presets, ignored, broken };
}

/** Loads one preset by name; an unknown name is a 400 that lists the known ones. */
export async function loadPreset(presetsDir: string, name: string): Promise<Preset> {
  validatePresetName(name);
  if (isBuiltIn(name)) return { name, readonly: true, values: { ...BUILT_IN_PRESETS[name] } };
  const preset = await readUserPreset(presetsDir, name);
  if (preset === undefined) {
    const known = (await listPresets(presetsDir)).presets.map((p) => p.name).join(", ");
    throw badRequest(`Unknown preset '${name}': known presets are ${known}`, "unknown_preset");
  }
  return preset;
}

/** Saves a user preset atomically (keys sorted); built-in names are refused with a 409. */
export async function savePreset(
  presetsDir: string,
  name: string,
  values: PresetValues,
): Promise<void> {
  const file = presetPath(presetsDir, name);
  if (isBuiltIn(name)) {
    throw new ConflictError(`Cannot overwrite preset '${name}': it is read-only`, {
      code: "readonly_preset",
    });
  }
  const clean = normalisePresetValues(values, name);
  const sorted = Object.fromEntries(Object.entries(clean).sort(([a], [b]) => a.localeCompare(b)));
  await Deno.mkdir(presetsDir, { recursive: true });
  await writeFileAtomic(file, JSON.stringify(sorted, null, 2) + "\n");
}

/** Deletes a user preset; built-ins are refused (409) and a missing preset is a 404. */
export async function deletePreset(presetsDir: string, name: string): Promise<void> {
  const file = presetPath(presetsDir, name);
  if (isBuiltIn(name)) {
    throw new ConflictError(`Cannot delete preset '${name}': it is read-only`, {
      code: "readonly_preset",
    });
  }
  try {
    await Deno.remove(file);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new NotFoundError(`Cannot delete preset '${name}': it does not exist`, {
        code: "not_found",
      });
    }
    throw err;
  }
}
