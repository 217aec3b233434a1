/**
 * Builds the Benchmark form from the command line's flag table: sections (basic, which models,
 * sampling, model load, advanced), a human label per field with its flag as a hint, one control
 * for a flag and its negated twin, and as placeholder the value in force when the field is left
 * empty — the server's effective configuration (built-in, project and user defaults and the
 * web app's own benchmark arguments).
 *
 * @module
 */
import { FLAGS, type FlagSpec, isListKind } from "../cli/mod.ts";
import { type RunOptions, workloadOf } from "../bench/mod.ts";
import type { Config } from "../config/mod.ts";
import type { FieldControl, FormField, FormSection } from "../shared/form_fields.ts";
import { CHOICE_LABELS, LABELS, SECTIONS } from "./form_labels.ts";

/** What the placeholders are read from. */
export interface EffectiveDefaults {
  config: Config;
  options: RunOptions;
}

/** The value at a dotted path of an object. */
function at(obj: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>(
    (o, k) => (o !== null && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined),
    obj,
  );
}

/** The value in force for a flag's key. */
function effective(spec: FlagSpec, d: EffectiveDefaults): unknown {
  if (spec.key === "backend") {
    // No backend named: the REST switch decides, else the SDK (the default mode).
    return d.config.modelserver.backend ?? (d.config.modelserver.use_rest_api ? "rest" : "sdk");
  }
  if (spec.config) return at(d.config, spec.config);
  const w = workloadOf(d.options) as unknown as Record<string, unknown>;
  const sources = [d.options as unknown as Record<string, unknown>, d.options.filters, w];
  for (const source of sources) {
    const v = (source as Record<string, unknown>)[spec.key] ??
      (source as Record<string, unknown>)[`${spec.key}_ms`];
    if (v !== undefined) return v;
  }
  return spec.fallback;
}

/** A value as a placeholder (undefined: none to say). */
function shown(v: unknown, spec: FlagSpec): string | undefined {
  if (v === null || v === undefined || v === false || v === "") return undefined;
  if (Array.isArray(v)) return v.length ? v.join(",") : undefined;
  if (typeof v === "boolean") return "on";
  if (spec.kind === "choice") return CHOICE_LABELS[spec.long]?.[String(v)] ?? String(v);
  return String(v);
}

function controlOf(spec: FlagSpec, twin: boolean): FieldControl {
  if (twin) return "tristate";
  if (spec.kind === "bool") return "check";
  if (spec.kind === "int" || spec.kind === "float") return "number";
  if (isListKind(spec.kind)) return "list";
  if (spec.kind === "choice") return "select";
  if (spec.kind === "url") return "url";
  if (spec.long === "api-token") return "password";
  if (spec.long === "prompt") return "textarea";
  return "text";
}

/** One field for the flag `long` (and its negated twin when it has one). */
function fieldOf(long: string, d: EffectiveDefaults): FormField {
  const spec = FLAGS.find((f) => f.long === long);
  if (!spec) throw new RangeError(`Cannot build the form: no flag '--${long}'`);
  const twins = FLAGS.filter((f) => f.key === spec.key && f.kind === "bool" && f !== spec);
  const control = controlOf(spec, twins.length > 0);
  const flags = [spec.long, ...twins.map((t) => t.long), ...(spec.aliases ?? [])];
  const value = effective(spec, d);
  const field: FormField = {
    id: spec.long,
    key: spec.key,
    label: LABELS[spec.long] ?? spec.description,
    hint: `${[spec, ...twins].map((f) => `--${f.long}`).join(" / ")}: ${spec.description}`,
    control,
    flags: flags.map((f) => f.replace(/^-+/, "")),
  };
  if (control === "tristate") {
    const state = value === true ? "on" : value === false ? "off" : "the server's";
    field.choices = [{ value: "on", label: "On" }, { value: "off", label: "Off" }];
    field.placeholder = `Default (${state})`;
  } else if (control === "select") {
    field.choices = (spec.choices ?? []).map((c) => ({
      value: c,
      label: CHOICE_LABELS[spec.long]?.[c] ?? c,
    }));
    field.placeholder = `Default (${shown(value, spec) ?? "the server's"})`;
  } else if (control === "check") {
    if (value === true) field.placeholder = "on";
  } else {
    const text = shown(value, spec);
    if (text !== undefined) field.placeholder = text;
  }
  if (control === "number") {
    if (spec.min !== undefined) field.min = spec.min;
    if (spec.max !== undefined) field.max = spec.max;
    if (spec.kind === "float") field.step = "any";
  }
  return field;
}

/**
 * The form's sections with the placeholders of `defaults`.
 *
 * @example
 * ```ts ignore
 * const sections = formSections({ config, options });
 * console.log(sections[0].fields[0]); // { id: "runs", label: "Measured runs per model", placeholder: "3", ... }
 * ```
 */
export function formSections(defaults: EffectiveDefaults): FormSection[] {
  return SECTIONS.map((s) => ({
    id: s.id,
    title: s.title,
    open: s.open,
    fields: s.fields.map((long) => fieldOf(long, defaults)),
  }));
}
