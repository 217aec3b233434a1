/**
 * Checks of one configuration layer (a parsed file, or the command line) against the
 * configuration schema, so a wrong value in a file is reported with the file and the key instead
 * of failing later. Unknown keys are returned for a warning, not refused.
 *
 * @module
 */
import * as v from "valibot";
import { AppError, UnprocessableError } from "../error.ts";
import { entriesOf } from "../schema/mod.ts";
import { isPlainObject, type JsonObject } from "./merge.ts";
import { CONFIG_SCHEMA } from "./schema.ts";

/** What a wrong value is, without repeating it (files may hold secrets such as the token). */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "boolean") return String(value);
  return typeof value === "object" ? "an object" : typeof value;
}

function invalid(message: string): AppError {
  return new UnprocessableError(message, { code: "invalid_config" });
}

/**
 * Checks one layer. Throws `AppError` 422 (`invalid_config`) naming `source` (a description such
 * as `the user configuration (defaults.json)`) and the key of a value the schema refuses, saying
 * what the value must be and what it is without repeating it; a `null` is always accepted (it
 * keeps the lower layer's value, see `merge.ts`). Returns the unknown keys so the caller can warn.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateLayer } from "./validate.ts";
 * assert.deepEqual(validateLayer({ num_run: 2, load: { n_batch: null } }, "a file"), ["num_run"]);
 * assert.throws(
 *   () => validateLayer({ inference: { temperature: 3 } }, "a file"),
 *   /Cannot use a file: 'inference.temperature' must be a number between 0.0 and 2.0: got an integer$/,
 * );
 * ```
 */
export function validateLayer(layer: unknown, source: string): string[] {
  if (!isPlainObject(layer)) throw invalid(`Cannot use ${source}: it must hold a JSON object`);
  const unknown: string[] = [];
  const visit = (obj: JsonObject, schema: v.GenericSchema, prefix: string) => {
    const entries = entriesOf(schema) ?? {};
    for (const [key, value] of Object.entries(obj)) {
      const path = prefix + key;
      const field = entries[key];
      if (field === undefined) {
        unknown.push(path);
        continue;
      }
      if (value === null) continue;
      if (entriesOf(field) !== undefined) {
        if (!isPlainObject(value)) {
          throw invalid(`Cannot use ${source}: '${path}' must be an object: got ${kindOf(value)}`);
        }
        visit(value, field, `${path}.`);
        continue;
      }
      const result = v.safeParse(field, value, { abortEarly: true });
      if (!result.success) {
        throw invalid(
          `Cannot use ${source}: '${path}' must be ${result.issues[0].message}: got ${
            kindOf(value)
          }`,
        );
      }
    }
  };
  visit(layer, CONFIG_SCHEMA, "");
  return unknown;
}
