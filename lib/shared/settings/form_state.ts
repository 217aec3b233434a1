/**
 * The state of a settings screen, in signals: what each control holds, what was saved, the
 * host's message on each refused field, and the screen's status (saving, saved, re-applying while
 * the host restarts). Saving sends only the changed settings; the host validates them (browser
 * code: no Deno APIs).
 *
 * @module
 */
import { batch, type Signal, signal } from "@preact/signals";
import {
  loadSettings,
  resetSettings,
  type SaveResult,
  saveSettings,
  SettingsRequestError,
  waitForRestart,
} from "./settings_api.ts";
import { type Field, fieldId, fieldsOf, type Section, type SettingsProps } from "./spec.ts";
import { type FormValue, fromForm, sameValue, toForm } from "./values.ts";

/** What a secret's control asks for. */
export type SecretEdit = { mode: "keep" } | { mode: "replace"; value: string } | { mode: "clear" };

/** The screen's status line. */
export interface FormStatus {
  kind: "idle" | "busy" | "saved" | "reapplying" | "warning" | "error";
  text: string;
}

/** A settings screen's state and actions. */
export interface SettingsForm {
  plugin: string;
  sections: readonly Section[];
  canEdit: boolean;
  csrfToken: string;
  /** Control contents by setting key. */
  form: Signal<Record<string, FormValue>>;
  /** The settings as last saved (or loaded). */
  saved: Signal<Record<string, unknown>>;
  /** Whether each secret holds a value. */
  secrets: Signal<Record<string, boolean>>;
  /** What each secret's control asks for. */
  secretEdits: Signal<Record<string, SecretEdit>>;
  /** The host's message per refused setting. */
  errors: Signal<Record<string, string>>;
  status: Signal<FormStatus>;
  /** Sets a control's content (and clears that field's message). */
  set(key: string, value: FormValue): void;
  /** Sets what a secret's control asks for. */
  editSecret(key: string, edit: SecretEdit): void;
  /** The changed settings, as they would be saved. */
  changes(): Record<string, unknown>;
  save(): Promise<void>;
  /** Resets the plugin to its defaults. */
  reset(): Promise<void>;
  /** Shows a refusal on the field it names (or on the form). */
  showError(err: unknown): void;
}

function formOf(fields: Field[], values: Record<string, unknown>): Record<string, FormValue> {
  return Object.fromEntries(fields.map((f) => [f.key, toForm(f, values[f.key])]));
}

/** Opens the folded section of a field and moves the focus to it (after the next paint). */
function focusField(plugin: string, key: string): void {
  setTimeout(() => {
    const el = document.getElementById(fieldId(plugin, key));
    const folded = el?.closest("details");
    if (folded) folded.open = true;
    el?.focus();
  }, 0);
}

/** Creates a settings screen's state from the page's props. */
export function createSettingsForm(
  plugin: string,
  sections: readonly Section[],
  props: SettingsProps,
): SettingsForm {
  const fields = fieldsOf(sections);
  const keys = fields.map((f) => f.key);
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const s: SettingsForm = {
    plugin,
    sections,
    canEdit: props.canEdit && props.csrfToken !== "",
    csrfToken: props.csrfToken,
    form: signal(formOf(fields, props.values)),
    saved: signal({ ...props.values }),
    secrets: signal({ ...props.secrets }),
    secretEdits: signal({}),
    errors: signal({}),
    status: signal({ kind: "idle", text: "" }),
    set(key, value) {
      batch(() => {
        s.form.value = { ...s.form.value, [key]: value };
        if (key in s.errors.value) {
          const { [key]: _gone, ...rest } = s.errors.value;
          s.errors.value = rest;
        }
      });
    },
    editSecret(key, edit) {
      s.secretEdits.value = { ...s.secretEdits.value, [key]: edit };
    },
    changes() {
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        if (f.kind === "secret") {
          const edit = s.secretEdits.value[f.key] ?? { mode: "keep" };
          if (edit.mode === "replace" && edit.value !== "") out[f.key] = edit.value;
          if (edit.mode === "clear") out[f.key] = "";
          continue;
        }
        const value = fromForm(f, s.form.value[f.key] ?? toForm(f, undefined));
        if (!sameValue(value, s.saved.value[f.key])) out[f.key] = value;
      }
      return out;
    },
    async save() {
      const update = s.changes();
      if (Object.keys(update).length === 0) {
        s.status.value = { kind: "idle", text: "Nothing changed." };
        return;
      }
      s.errors.value = {};
      s.status.value = { kind: "busy", text: "Saving…" };
      try {
        await applied(await saveSettings(plugin, update, s.csrfToken, keys));
      } catch (err) {
        s.showError(err);
      }
    },
    async reset() {
      s.errors.value = {};
      s.status.value = { kind: "busy", text: "Restoring the defaults…" };
      try {
        await applied(await resetSettings(plugin, s.csrfToken), "Defaults restored.");
      } catch (err) {
        s.showError(err);
      }
    },
    showError(err) {
      const message = err instanceof Error ? err.message : String(err);
      const setting = err instanceof SettingsRequestError ? err.setting : null;
      if (err instanceof SettingsRequestError && err.status === 401) {
        location.assign(`/plugins/login?next=${encodeURIComponent(location.pathname)}`);
        return;
      }
      if (setting !== null && byKey.has(setting)) {
        s.errors.value = { ...s.errors.value, [setting]: message };
        s.status.value = {
          kind: "error",
          text: `Not saved: see the message under "${byKey.get(setting)!.label}".`,
        };
        focusField(plugin, setting);
      } else {
        s.status.value = { kind: "error", text: `Not saved: ${message}` };
      }
    },
  };

  const take = (values: Record<string, unknown>, secrets: Record<string, boolean>) => {
    batch(() => {
      s.saved.value = { ...values };
      s.form.value = formOf(fields, values);
      s.secrets.value = { ...secrets };
      s.secretEdits.value = {};
    });
  };

  async function applied(result: SaveResult, done = "Saved."): Promise<void> {
    take(result.values, result.secrets);
    if (result.restartNeeded) {
      s.status.value = {
        kind: "warning",
        text: `Saved. Restart the host to apply them: it may not reach ${
          result.needs.join(", ")
        } yet.`,
      };
      return;
    }
    if (!result.reapplying) {
      s.status.value = { kind: "saved", text: done };
      return;
    }
    s.status.value = {
      kind: "reapplying",
      text: `Re-applying… the host restarts to reach ${result.needs.join(", ") || "them"}.`,
    };
    if (!(await waitForRestart())) {
      s.status.value = { kind: "error", text: "Saved, but the host has not come back yet." };
      return;
    }
    try {
      const now = await loadSettings(plugin);
      take(now.values, now.secrets);
      s.status.value = { kind: "saved", text: `${done} The host re-applied them.` };
    } catch (err) {
      s.showError(err);
    }
  }
  return s;
}
