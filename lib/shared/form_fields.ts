/**
 * The Benchmark form's fields as JSON (built on the server from the command line's flag table,
 * rendered in the browser) and the pure conversions around them: form values → the start body,
 * preset values → form values, and an API error naming an argument → the field it belongs to.
 * Browser-safe.
 *
 * @module
 */

/** How a field is edited. */
export type FieldControl =
  | "number"
  | "text"
  | "textarea"
  | "list"
  | "password"
  | "url"
  | "select"
  | "check"
  /** Default / on / off: a flag and its negated twin (`--use-mmap`, `--no-mmap`). */
  | "tristate";

/** One field. */
export interface FormField {
  /** The long name of its (first) flag, also the element id's tail (`field-runs`). */
  id: string;
  /** The start body's key. */
  key: string;
  label: string;
  /** The flag(s) and what they do (`--runs: measured runs per model`). */
  hint: string;
  control: FieldControl;
  /** Choices of a select (the empty value is "default"). */
  choices?: { value: string; label: string }[];
  min?: number;
  max?: number;
  /** `any` for decimals. */
  step?: string;
  /** The value in force when the field is left empty (the server's effective default). */
  placeholder?: string;
  /** Every flag the field stands for (error messages name one of these). */
  flags: string[];
}

/** A group of fields. */
export interface FormSection {
  id: string;
  title: string;
  open: boolean;
  fields: FormField[];
}

/** Form state: field id → text, checkbox state, or `on`/`off`/`` for three states. */
export type FormValues = Record<string, string | boolean>;

/**
 * The start body (field keys → values) of the form; empty fields are left out, so the server's
 * defaults apply to them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formToBody, type FormField } from "./form_fields.ts";
 * const f = (id: string, key: string, control: FormField["control"]): FormField =>
 *   ({ id, key, control, label: id, hint: "", flags: [id] });
 * const body = formToBody([f("runs", "runs", "number"), f("use-mmap", "use_mmap", "tristate")],
 *   { runs: " 2 ", "use-mmap": "off" });
 * assert.deepEqual(body, { runs: "2", use_mmap: false });
 * ```
 */
export function formToBody(fields: FormField[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.id];
    if (v === undefined || v === "" || v === false) continue;
    if (f.control === "check") body[f.key] = true;
    else if (f.control === "tristate") {
      if (v === "on" || v === "off") body[f.key] = v === "on";
    } else if (f.control === "list") {
      const items = String(v).split(",").map((s) => s.trim()).filter(Boolean);
      if (items.length > 0) body[f.key] = items;
    } else if (String(v).trim() !== "") body[f.key] = String(v).trim();
  }
  return body;
}

/** Fills the form from preset values (field keys → values); unknown keys are left out. */
export function presetToForm(fields: FormField[], preset: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const [key, v] of Object.entries(preset)) {
    const f = fields.find((x) => x.key === key);
    if (!f || v === null || v === undefined) continue;
    if (f.control === "check") out[f.id] = v === true;
    else if (f.control === "tristate") out[f.id] = v === true ? "on" : v === false ? "off" : "";
    else out[f.id] = Array.isArray(v) ? v.join(",") : String(v);
  }
  return out;
}

/**
 * The field an error message is about: the first `--flag` it names that a field stands for
 * (the command line's messages name the argument), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fieldOfError, type FormField } from "./form_fields.ts";
 * const runs: FormField = { id: "runs", key: "runs", control: "number", label: "", hint: "", flags: ["runs"] };
 * assert.equal(fieldOfError([runs], "Invalid value for --runs: 'x' is not an integer"), runs);
 * assert.equal(fieldOfError([runs], "Cannot reach the server"), null);
 * ```
 */
export function fieldOfError(fields: FormField[], message: string): FormField | null {
  for (const m of message.matchAll(/--([a-z][a-z0-9-]*)/g)) {
    const f = fields.find((x) => x.flags.includes(m[1]!));
    if (f) return f;
  }
  return null;
}

/**
 * The command line's complaint as a field's message: without the option's own spelling, what
 * was given at the end (`Must be an integer ≥ 1 (given: 'abc')`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fieldMessage } from "./form_fields.ts";
 * const m = fieldMessage("option '-r, --runs <n>' argument 'abc' is invalid. Must be an integer ≥ 1.");
 * assert.equal(m, "Must be an integer ≥ 1 (given: 'abc')");
 * ```
 */
export function fieldMessage(message: string): string {
  const m = /^option '[^']*' argument ('(?:[^']|'(?! is invalid))*') is invalid\.\s*(.*)$/s.exec(
    message,
  );
  if (!m) return message;
  return `${m[2]!.replace(/\.$/, "")} (given: ${m[1]})`;
}
