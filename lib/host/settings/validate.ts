/**
 * Helpers for plugins' `validateSettings`: each checks one setting of a candidate and throws
 * `AppError` 400 whose message names the setting.
 *
 * @module
 */
import { AppError, UsageError } from "../../error.ts";
import type { Settings } from "../plugin.ts";

function invalid(key: string, expectation: string, value: unknown): AppError {
  return new UsageError(
    `Invalid value for setting '${key}': ${expectation} (got ${
      JSON.stringify(value) ?? "undefined"
    })`,
    { code: "invalid_setting" },
  );
}

/**
 * An integer setting within `[min, max]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settingInt } from "./validate.ts";
 * assert.equal(settingInt({ n: 5 }, "n", 1, 10), 5);
 * ```
 */
export function settingInt(s: Settings, key: string, min: number, max: number): number {
  const v = s[key];
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(key, `must be an integer from ${min} to ${max}`, v);
  }
  return v;
}

/** A number setting within `[min, max]`. */
export function settingNumber(s: Settings, key: string, min: number, max: number): number {
  const v = s[key];
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) {
    throw invalid(key, `must be a number from ${min} to ${max}`, v);
  }
  return v;
}

/** A boolean setting. */
export function settingBool(s: Settings, key: string): boolean {
  const v = s[key];
  if (typeof v !== "boolean") throw invalid(key, "must be true or false", v);
  return v;
}

/** A string setting of at most `maxLength` characters. */
export function settingString(s: Settings, key: string, maxLength = 1024): string {
  const v = s[key];
  if (typeof v !== "string" || v.length > maxLength) {
    throw invalid(key, `must be a string of at most ${maxLength} characters`, v);
  }
  return v;
}

/** A string setting that must be one of `options`. */
export function settingEnum<T extends string>(s: Settings, key: string, options: readonly T[]): T {
  const v = s[key];
  if (typeof v !== "string" || !options.includes(v as T)) {
    throw invalid(key, `must be one of ${options.join(", ")}`, v);
  }
  return v as T;
}

/** A list of strings, each accepted by `check` (which returns an error text or null). */
export function settingStringList(
  s: Settings,
  key: string,
  check: (item: string) => string | null = () => null,
): string[] {
  const v = s[key];
  if (!Array.isArray(v)) throw invalid(key, "must be a list of strings", v);
  for (const item of v) {
    if (typeof item !== "string") throw invalid(key, "must be a list of strings", v);
    const problem = check(item);
    if (problem !== null) throw invalid(key, problem, item);
  }
  return [...v] as string[];
}

/** Throws 400 naming the first key of `s` that is not in `defaults`. */
export function rejectUnknownSettings(s: Settings, defaults: Settings): void {
  for (const key of Object.keys(s)) {
    if (!(key in defaults)) {
      throw new UsageError(`Unknown setting '${key}'`, { code: "invalid_setting" });
    }
  }
}
