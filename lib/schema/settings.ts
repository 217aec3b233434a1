/**
 * Parsing settings with a valibot schema into a typed value, and the one message shape of a
 * refused setting: `Setting '<path>' must be <what the field says>: got <value>` (a secret shows
 * only its type), `Setting '<path>' is not a setting of <owner>`, or the sentence of a
 * cross-setting {@linkcode rule}. The error names the setting's path (`channels[3].mode`), so the
 * host can drop exactly that stored value.
 *
 * @module
 */
import * as v from "valibot";
import { UsageError } from "../error.ts";
import { isPlainObject } from "../shared/json_object.ts";

/** A refused setting: a 400 `invalid_setting` naming the setting (null: the whole object). */
export class SettingError extends UsageError {
  /** The setting's path, e.g. `min_rate` or `channels[3].mode`; null for the whole object. */
  readonly setting: string | null;

  constructor(message: string, setting: string | null) {
    super(message, { code: "invalid_setting" });
    this.name = "SettingError";
    this.setting = setting;
  }
}

/** `["channels", 3, "mode"]` → `channels[3].mode`. */
export function pathText(keys: readonly unknown[]): string {
  let out = "";
  for (const key of keys) {
    out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The path of an issue as text (empty for the root). */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  return pathText((issue.path ?? []).map((item) => item.key));
}

/** A value as a message shows it: JSON (at most 100 characters), only its type for a secret. */
export function shownValue(value: unknown, secret = false): string {
  if (secret) return `a hidden ${value === null ? "null" : typeof value}`;
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}… (${text.length} characters)` : text;
}

/** Options of {@linkcode parseSettings}. */
export interface ParseSettingsOptions {
  /** Who the settings belong to, in messages (a plugin id). */
  owner: string;
  /** Top-level settings whose values never appear in a message (passwords). */
  secrets?: readonly string[];
  /** Where the parsed value sits in the settings (`channels[2].rules`), before each path. */
  at?: string;
}

/**
 * The message of the first issue of a settings parse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { integer } from "./fields.ts";
 * import { settingIssue } from "./settings.ts";
 * const r = v.safeParse(v.strictObject({ n: integer({ min: 1, max: 9 }) }), { n: 12 });
 * assert.ok(!r.success);
 * assert.deepEqual(settingIssue(r.issues[0], { owner: "demo" }), {
 *   setting: "n",
 *   message: "Setting 'n' must be an integer between 1 and 9: got 12",
 * });
 * ```
 */
export function settingIssue(
  issue: v.BaseIssue<unknown>,
  options: ParseSettingsOptions,
): { setting: string | null; message: string } {
  const own = issuePath(issue);
  const setting = options.at === undefined
    ? own
    : own === "" || own.startsWith("[")
    ? `${options.at}${own}`
    : `${options.at}.${own}`;
  if (setting === "") {
    return { setting: null, message: `Settings of '${options.owner}' must be an object` };
  }
  // A rule's message is a whole sentence (see rule()).
  if (issue.type === "raw_check" || issue.type === "raw_transform") {
    return { setting, message: issue.message };
  }
  if (issue.type === "strict_object" && issue.expected === "never") {
    return { setting, message: `Setting '${setting}' is not a setting of ${options.owner}` };
  }
  const top = String(options.at ?? issue.path?.[0]?.key ?? "").replace(/[.[].*$/, "");
  const shown = shownValue(issue.input, (options.secrets ?? []).includes(top));
  return { setting, message: `Setting '${setting}' must be ${issue.message}: got ${shown}` };
}

/**
 * Parses settings `candidate` (a JSON object) with `schema` (missing keys take their defaults)
 * into its typed output.
 *
 * @throws {SettingError} naming the first refused setting.
 */
export function parseSettings<S>(
  schema: v.GenericSchema<unknown, S>,
  candidate: unknown,
  options: ParseSettingsOptions,
): S {
  if (!isPlainObject(candidate)) {
    // valibot's objects take arrays too: settings are a JSON object.
    throw new SettingError(`Settings of '${options.owner}' must be an object`, null);
  }
  return parseSetting(schema, candidate, options);
}

/**
 * Parses one value of the settings (at `options.at`) with its schema.
 *
 * @throws {SettingError} naming the refused setting.
 */
export function parseSetting<S>(
  schema: v.GenericSchema<unknown, S>,
  value: unknown,
  options: ParseSettingsOptions,
): S {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (result.success) return result.output;
  const { setting, message } = settingIssue(result.issues[0], options);
  throw new SettingError(message, setting);
}

/**
 * A rule over a whole settings object that one setting breaks (a cross-setting rule, or a format
 * its type cannot say): `problem` returns the sentence saying what is wrong, or null when the
 * rule holds; the issue names `key`. Runs only once every field has its type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { integer } from "./fields.ts";
 * import { parseSettings, rule } from "./settings.ts";
 * const schema = v.pipe(
 *   v.object({ lo: integer(), hi: integer() }),
 *   rule("hi", (s) => s.hi >= s.lo ? null : "Setting 'hi' must not be below 'lo'"),
 * );
 * assert.throws(() => parseSettings(schema, { lo: 5, hi: 1 }, { owner: "demo" }), /below 'lo'/);
 * assert.deepEqual(parseSettings(schema, { lo: 1, hi: 5 }, { owner: "demo" }), { lo: 1, hi: 5 });
 * ```
 */
export function rule<T extends Record<string, unknown>>(
  key: keyof T & string,
  problem: (settings: T) => string | null,
): v.RawCheckAction<T> {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const message = problem(dataset.value);
    if (message === null) return;
    addIssue({
      message,
      path: [{
        type: "object",
        origin: "value",
        input: dataset.value,
        key,
        value: dataset.value[key],
      }],
    });
  });
}
