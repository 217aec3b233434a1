/**
 * A plugin's settings screen: its sections of fields, Save (only the changed settings) and
 * "Restore defaults" (after a confirmation), the status line (saved, re-applying while the host
 * restarts, or why not) and the host's message on each refused field. A plugin's island adds its
 * own parts after a field (`after`). Browser and server code.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useSignal } from "@preact/signals";
import { ModalDialog } from "../dialog.tsx";
import { SettingField } from "./fields.tsx";
import type { SettingsForm as FormState } from "./form_state.ts";

/** Props of {@linkcode SettingsForm}. */
export interface SettingsFormProps {
  form: FormState;
  /** Parts shown after the field of a key (e.g. a "Test connection" button). */
  after?: Record<string, ComponentChildren>;
}

function StatusLine({ form }: { form: FormState }) {
  const { kind, text } = form.status.value;
  return (
    <p class={`form-status status-${kind}`} role="status" aria-live="polite" data-testid="status">
      {text}
    </p>
  );
}

/** The settings form. */
export function SettingsForm({ form, after = {} }: SettingsFormProps) {
  const confirming = useSignal(false);
  const busy = form.status.value.kind === "busy" || form.status.value.kind === "reapplying";
  return (
    <form
      class="settings-form"
      data-testid="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy) form.save();
      }}
    >
      {form.canEdit ? null : (
        <p class="banner" data-testid="read-only">
          You may look at these settings; changing them needs the SETTINGS permission (and a
          signed-in session).
        </p>
      )}
      <fieldset class="settings-body" disabled={!form.canEdit}>
        {form.sections.map((section) => {
          const body = (
            <>
              {section.intro ? <p class="hint">{section.intro}</p> : null}
              <div class="settings-fields">
                {section.fields.map((field) => (
                  <div key={field.key} class="setting-slot">
                    <SettingField form={form} field={field} />
                    {after[field.key] ?? null}
                  </div>
                ))}
              </div>
            </>
          );
          return section.folded
            ? (
              <details key={section.title} class="card settings-section">
                <summary>
                  <h2>{section.title}</h2>
                </summary>
                {body}
              </details>
            )
            : (
              <section key={section.title} class="card settings-section">
                <h2>{section.title}</h2>
                {body}
              </section>
            );
        })}
      </fieldset>
      <div class="settings-actions">
        <button type="submit" data-testid="save" disabled={!form.canEdit || busy}>
          Save
        </button>
        <button
          type="button"
          class="secondary"
          data-testid="reset"
          disabled={!form.canEdit || busy}
          onClick={() => confirming.value = true}
        >
          Restore defaults
        </button>
        <StatusLine form={form} />
      </div>
      {confirming.value
        ? (
          <ModalDialog
            title="Restore the defaults?"
            onClose={() => confirming.value = false}
            testid="reset-confirm"
          >
            <p>Every setting of this plugin goes back to its default, secrets included.</p>
            <div class="modal-actions">
              <button
                type="button"
                class="danger"
                data-testid="reset-yes"
                onClick={() => {
                  confirming.value = false;
                  form.reset();
                }}
              >
                Restore defaults
              </button>
              <button
                type="button"
                data-testid="reset-no"
                autofocus
                onClick={() => confirming.value = false}
              >
                Cancel
              </button>
            </div>
          </ModalDialog>
        )
        : null}
    </form>
  );
}
