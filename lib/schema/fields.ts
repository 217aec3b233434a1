/**
 * Field schemas (valibot) for configuration and settings: each carries one message, the phrase
 * of what the value must be ("an integer between 1 and 10"), used by every check of the field,
 * and its bounds as metadata, so that the command line, the migrations and the tests read the
 * same bounds as the validation. Objects, defaults (`v.optional(field, default)`) and cross-field
 * rules are plain valibot.
 *
 * @module
 */
import * as v from "valibot";

/** What a field is, read back by {@linkcode fieldInfo}. */
export interface FieldInfo {
  kind: "boolean" | "integer" | "number" | "string" | "choice";
  min?: number;
  max?: number;
  /** `min` is excluded (sizes > 0). */
  exclusiveMin?: boolean;
  maxLength?: number;
  options?: readonly string[];
  /** The phrase of the field's message: `an integer ≥ 1`. */
  expected: string;
}

/** Bounds of a number field. */
export interface Bounds {
  min?: number;
  max?: number;
  /** `min` is excluded. @default false */
  exclusiveMin?: boolean;
}

/** A bound as a settings table writes it: `1.0` for a decimal field, `60` for an integer one. */
function bound(n: number, decimal: boolean): string {
  return decimal && Number.isInteger(n) ? n.toFixed(1) : String(n);
}

/**
 * What a number must be, in words (a range as a settings table writes it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberPhrase } from "./fields.ts";
 * assert.equal(numberPhrase("integer", { min: 1 }), "an integer ≥ 1");
 * assert.equal(numberPhrase("number", { min: 0.01, max: 1 }), "a number between 0.01 and 1.0");
 * assert.equal(numberPhrase("number", { min: 0, exclusiveMin: true }), "a number > 0");
 * ```
 */
export function numberPhrase(kind: "integer" | "number", b: Bounds): string {
  const a = kind === "integer" ? "an integer" : "a number";
  const decimal = kind === "number";
  if (b.min !== undefined && b.max !== undefined && !b.exclusiveMin) {
    return `${a} between ${bound(b.min, decimal)} and ${bound(b.max, decimal)}`;
  }
  const parts: string[] = [];
  if (b.min !== undefined) parts.push(`${b.exclusiveMin ? ">" : "≥"} ${b.min}`);
  if (b.max !== undefined) parts.push(`≤ ${b.max}`);
  return parts.length === 0 ? a : `${a} ${parts.join(" and ")}`;
}

/** The metadata key of the field description. */
const INFO = "localbench.field";

function numberField(kind: "integer" | "number", b: Bounds) {
  const expected = numberPhrase(kind, b);
  const low = b.min ?? -Infinity;
  return v.pipe(
    v.number(expected),
    v.finite(expected),
    v.check((n) => kind === "number" || Number.isInteger(n), expected),
    b.exclusiveMin ? v.gtValue(low, expected) : v.minValue(low, expected),
    v.maxValue(b.max ?? Infinity, expected),
    v.metadata({ [INFO]: { kind, ...b, expected } satisfies FieldInfo }),
  );
}

/** An integer within `bounds`. */
export function integer(bounds: Bounds = {}) {
  return numberField("integer", bounds);
}

/** A finite number within `bounds`. */
export function number(bounds: Bounds = {}) {
  return numberField("number", bounds);
}

/** `true` or `false`. */
export function boolean() {
  const expected = "true or false";
  return v.pipe(
    v.boolean(expected),
    v.metadata({ [INFO]: { kind: "boolean", expected } satisfies FieldInfo }),
  );
}

/** Options of {@linkcode text}. */
export interface TextOptions {
  /** Longest value in characters. @default no limit */
  maxLength?: number;
  /** Refuse an empty (or blank) value. @default false */
  nonEmpty?: boolean;
}

/** A string (checked as given; trim it with `v.trim()` after the field when the owner wants). */
export function text(options: TextOptions = {}) {
  const expected = options.nonEmpty
    ? "a non-empty string"
    : options.maxLength === undefined
    ? "a string"
    : `a string of at most ${options.maxLength} characters`;
  return v.pipe(
    v.string(expected),
    v.maxLength(options.maxLength ?? Infinity, expected),
    v.check((s) => !options.nonEmpty || s.trim() !== "", expected),
    v.metadata({ [INFO]: { kind: "string", maxLength: options.maxLength, expected } }),
  );
}

/** One of `options`. */
export function choice<const T extends readonly [string, ...string[]]>(options: T) {
  const expected = `one of ${options.join(", ")}`;
  return v.pipe(
    v.picklist(options, expected),
    v.metadata({ [INFO]: { kind: "choice", options, expected } satisfies FieldInfo }),
  );
}

/** A schema, maybe wrapped (optional, nullable, piped) around a field of this module. */
type AnySchema = v.GenericSchema;

/** The schema inside `optional`/`nullable`/`nullish` wrappers. */
export function unwrapped(schema: AnySchema): AnySchema {
  let s = schema as AnySchema & { wrapped?: AnySchema };
  while (s.wrapped !== undefined) s = s.wrapped as AnySchema & { wrapped?: AnySchema };
  return s;
}

/**
 * What a field built here is (its kind, bounds, options and message), through any wrapper;
 * undefined for another schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { fieldInfo, integer } from "./fields.ts";
 * const info = fieldInfo(v.optional(integer({ min: 1, max: 10 }), 5));
 * assert.deepEqual([info?.kind, info?.min, info?.max], ["integer", 1, 10]);
 * ```
 */
export function fieldInfo(schema: AnySchema): FieldInfo | undefined {
  const inner = unwrapped(schema) as AnySchema & { pipe?: readonly AnySchema[] };
  const meta = v.getMetadata(inner as Parameters<typeof v.getMetadata>[0]) as
    | Record<string, unknown>
    | undefined;
  const info = meta?.[INFO] as FieldInfo | undefined;
  // A field piped further (`v.pipe(integer(...), v.transform(...))`) keeps its description.
  if (info === undefined && inner.pipe?.[0] !== undefined) return fieldInfo(inner.pipe[0]);
  return info;
}

/** The entries of an object schema (through wrappers), or undefined for another schema. */
export function entriesOf(schema: AnySchema): Record<string, AnySchema> | undefined {
  const inner = unwrapped(schema) as AnySchema & { entries?: Record<string, AnySchema> };
  return inner.entries;
}

/**
 * The field at a dotted path of an object schema (`inference.temperature`).
 *
 * @throws {TypeError} when the path names no field.
 */
export function fieldAt(schema: AnySchema, path: string): AnySchema {
  let node = schema;
  for (const key of path.split(".")) {
    const next = entriesOf(node)?.[key];
    if (next === undefined) throw new TypeError(`Cannot find the field '${path}' in the schema`);
    node = next;
  }
  return node;
}

/**
 * An object of `entries` only (unknown keys refused), as `v.strictObject`, except that a list is
 * refused as well: valibot's objects take an array as an object, and settings are JSON objects.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { integer, object } from "./fields.ts";
 * const schema = object({ n: v.optional(integer(), 1) });
 * assert.deepEqual(v.parse(schema, {}), { n: 1 });
 * assert.equal(v.safeParse(schema, []).success, false);
 * assert.equal(v.safeParse(schema, { m: 2 }).success, false);
 * ```
 */
export function object<const T extends v.ObjectEntries>(entries: T, message = "an object") {
  const schema = v.strictObject(entries, message);
  const run = schema["~run"];
  return {
    ...schema,
    "~run"(dataset, config) {
      if (!Array.isArray(dataset.value)) return run.call(schema, dataset, config);
      v._addIssue(schema, "type", dataset, config);
      return dataset as typeof dataset & { typed: false };
    },
  } as typeof schema;
}
