/**
 * Form values of the benchmark form ↔ the start body / preset values (browser-safe).
 *
 * @module
 */

/** What the form needs of a flag (a JSON copy of the command line's flag table). */
export interface FlagView {
  long: string;
  key: string;
  kind: string;
  category: string;
  description: string;
  value?: boolean;
  choices?: readonly string[];
  min?: number;
  max?: number;
  fallback?: string | number | boolean;
  arg?: string;
}

/** Form state: long flag name → text or checkbox state. */
export type FormValues = Record<string, string | boolean>;

/** Builds the start body (flag keys → values) from the form; empty fields are left out. */
export function formToBody(flags: FlagView[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of flags) {
    const v = values[f.long];
    if (v === undefined || v === "" || v === false) continue;
    if (f.kind === "bool") body[f.key] = f.value ?? true;
    else if (f.kind === "list" || f.kind === "ints" || f.kind === "floats") {
      body[f.key] = String(v).split(",").map((s) => s.trim()).filter(Boolean);
    } else body[f.key] = String(v).trim();
  }
  return body;
}

/** Fills the form from preset values (flag keys → values). */
export function presetToForm(flags: FlagView[], preset: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const [key, v] of Object.entries(preset)) {
    const specs = flags.filter((f) => f.key === key);
    if (specs.length === 0) continue;
    if (specs[0]!.kind === "bool") {
      const spec = specs.find((s) => (s.value ?? true) === v);
      if (spec) out[spec.long] = true;
    } else out[specs[0]!.long] = Array.isArray(v) ? v.join(",") : String(v);
  }
  return out;
}
