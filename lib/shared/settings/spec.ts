/**
 * How a plugin describes its settings screen: sections of fields, each naming a setting, its
 * label, a hint and the control that edits it. The screen never checks values itself: the host
 * validates them and its messages are shown on the field they name (browser-safe data).
 *
 * @module
 */

/** One choice of a select or a radio group. */
export interface Choice {
  value: string | number;
  label: string;
}

/** What every field has. */
interface FieldBase {
  /** The setting's key in the plugin's settings. */
  key: string;
  label: string;
  /** A sentence under the control: what the setting does, its unit or range. */
  hint?: string;
}

/** A field of a settings screen. */
export type Field =
  | FieldBase & { kind: "toggle" }
  | FieldBase & { kind: "number"; unit?: string; step?: number | "any" }
  | FieldBase & { kind: "text"; placeholder?: string; wide?: boolean; inputMode?: "url" | "text" }
  | FieldBase & { kind: "textarea"; placeholder?: string }
  | FieldBase & { kind: "select"; options: readonly Choice[] }
  | FieldBase & { kind: "radio"; options: readonly Choice[] }
  /** A list of strings chosen from fixed options (checkboxes). */
  | FieldBase & { kind: "checklist"; options: readonly Choice[] }
  /** A list of strings typed one per line. */
  | FieldBase & { kind: "lines"; placeholder?: string }
  /** A secret (a password): shown as set / not set, replaced or cleared, never displayed. */
  | FieldBase & { kind: "secret" };

/** A group of fields under a heading. */
export interface Section {
  title: string;
  /** A sentence under the heading. */
  intro?: string;
  fields: readonly Field[];
  /** Shown folded (advanced settings). @default false */
  folded?: boolean;
}

/** The props the host's settings page gives every plugin's settings island. */
export interface SettingsProps {
  /** The session's CSRF token (empty with an API key: the form is then read-only). */
  csrfToken: string;
  /** Whether the user may save settings (SETTINGS permission). */
  canEdit: boolean;
  /** The plugin's settings as `GET /api/settings` returns them (secrets left out). */
  values: Record<string, unknown>;
  /** Which secret settings hold a value. */
  secrets: Record<string, boolean>;
}

/** Every field of the sections. */
export function fieldsOf(sections: readonly Section[]): Field[] {
  return sections.flatMap((s) => s.fields);
}

/** The id of a field's control in the page (its label, hint and error refer to it). */
export function fieldId(plugin: string, key: string): string {
  return `set-${plugin}-${key}`;
}
