/**
 * Values between a plugin's settings and the controls of its screen: what a control shows for a
 * stored value, and the value a control's content stands for when it is saved. A number field
 * whose text is not a number is saved as that text, so the host's message says what is wrong.
 *
 * @module
 */
import type { Field } from "./spec.ts";

/** What a control holds: a switch, a text, or the ticked options of a list. */
export type FormValue = boolean | string | string[];

/**
 * The control's content for a stored value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toForm } from "./values.ts";
 * assert.equal(toForm({ key: "n", label: "N", kind: "number" }, 2.5), "2.5");
 * assert.equal(toForm({ key: "l", label: "L", kind: "lines" }, ["a.log", "b.log"]), "a.log\nb.log");
 * ```
 */
export function toForm(field: Field, value: unknown): FormValue {
  switch (field.kind) {
    case "toggle":
      return value === true;
    case "checklist":
      return Array.isArray(value) ? value.map(String) : [];
    case "lines":
      return Array.isArray(value) ? value.map(String).join("\n") : "";
    case "select":
    case "radio": {
      const i = field.options.findIndex((o) => o.value === value);
      return i < 0 ? "" : String(i);
    }
    case "secret":
      return "";
    default:
      return value === undefined || value === null ? "" : String(value);
  }
}

/**
 * The setting a control's content stands for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromForm } from "./values.ts";
 * const port = { key: "port", label: "Port", kind: "number" } as const;
 * assert.equal(fromForm(port, " 8080 "), 8080);
 * assert.equal(fromForm(port, "eighty"), "eighty");
 * assert.deepEqual(fromForm({ key: "l", label: "L", kind: "lines" }, " a.log\n\nb.log "), [
 *   "a.log",
 *   "b.log",
 * ]);
 * ```
 */
export function fromForm(field: Field, value: FormValue): unknown {
  switch (field.kind) {
    case "toggle":
      return value === true;
    case "checklist":
      return Array.isArray(value) ? [...value] : [];
    case "lines":
      return String(value).split("\n").map((l) => l.trim()).filter((l) => l !== "");
    case "select":
    case "radio":
      return field.options[Number(value)]?.value ?? value;
    case "number": {
      const text = String(value).trim();
      const n = Number(text);
      return text !== "" && Number.isFinite(n) ? n : text;
    }
    default:
      return String(value);
  }
}

/** Whether two settings values are the same (deep, by JSON). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
