/**
 * The controls of a settings screen, one per field kind: a label, the control, the hint and the
 * host's message when it refused the value (the control is then marked invalid and described by
 * the message). Browser and server code.
 *
 * @module
 */
import type { SettingsForm } from "./form_state.ts";
import { type Field, fieldId } from "./spec.ts";

/** Props of a field's control. */
interface ControlProps {
  form: SettingsForm;
  field: Field;
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
}

function Secret({ form, field, id, describedBy, invalid }: ControlProps) {
  const set = form.secrets.value[field.key] === true;
  const edit = form.secretEdits.value[field.key] ?? { mode: "keep" };
  const clearing = edit.mode === "clear";
  return (
    <div class="secret">
      <span class={`secret-state ${set && !clearing ? "is-set" : ""}`} data-testid="secret-state">
        {clearing ? "will be cleared" : set ? "set" : "not set"}
      </span>
      <input
        id={id}
        name={field.key}
        type="password"
        autocomplete="new-password"
        placeholder={set ? "Type to replace" : "Type to set"}
        value={edit.mode === "replace" ? edit.value : ""}
        disabled={clearing}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onInput={(e) =>
          form.editSecret(field.key, { mode: "replace", value: e.currentTarget.value })}
      />
      {set || clearing
        ? (
          <button
            type="button"
            class="secondary"
            data-testid={`${field.key}-clear`}
            onClick={() =>
              form.editSecret(field.key, clearing ? { mode: "keep" } : { mode: "clear" })}
          >
            {clearing ? "Keep it" : "Clear"}
          </button>
        )
        : null}
    </div>
  );
}

function Control(props: ControlProps) {
  const { form, field, id, describedBy, invalid } = props;
  const value = form.form.value[field.key];
  const common = {
    id,
    name: field.key,
    "aria-invalid": invalid || undefined,
    "aria-describedby": describedBy,
  };
  const text = (e: Event) => form.set(field.key, (e.currentTarget as HTMLInputElement).value);
  switch (field.kind) {
    case "toggle":
      return (
        <input
          {...common}
          type="checkbox"
          role="switch"
          checked={value === true}
          onChange={(e) => form.set(field.key, e.currentTarget.checked)}
        />
      );
    case "number":
      return (
        <span class="with-unit">
          <input
            {...common}
            type="text"
            inputMode="decimal"
            value={String(value ?? "")}
            onInput={text}
          />
          {field.unit ? <span class="unit">{field.unit}</span> : null}
        </span>
      );
    case "text":
      return (
        <input
          {...common}
          type="text"
          class={field.wide ? "wide" : undefined}
          placeholder={field.placeholder}
          spellcheck={false}
          value={String(value ?? "")}
          onInput={text}
        />
      );
    case "textarea":
    case "lines":
      return (
        <textarea
          {...common}
          rows={field.kind === "lines" ? 3 : 5}
          placeholder={field.placeholder}
          spellcheck={false}
          value={String(value ?? "")}
          onInput={text}
        />
      );
    case "select":
      return (
        <select {...common} value={String(value ?? "")} onChange={text}>
          {field.options.map((o, i) => <option key={i} value={String(i)}>{o.label}</option>)}
        </select>
      );
    case "radio":
    case "checklist": {
      const list = Array.isArray(value) ? value : [];
      return (
        <div class="choices" id={id} tabIndex={-1} aria-describedby={describedBy}>
          {field.options.map((o, i) => (
            <label key={i} class="check">
              {field.kind === "radio"
                ? (
                  <input
                    type="radio"
                    name={field.key}
                    checked={value === String(i)}
                    onChange={() => form.set(field.key, String(i))}
                  />
                )
                : (
                  <input
                    type="checkbox"
                    name={field.key}
                    checked={list.includes(String(o.value))}
                    onChange={(e) =>
                      form.set(
                        field.key,
                        e.currentTarget.checked
                          ? [...list, String(o.value)]
                          : list.filter((v) => v !== String(o.value)),
                      )}
                  />
                )}
              {o.label}
            </label>
          ))}
        </div>
      );
    }
    case "secret":
      return <Secret {...props} />;
  }
}

/** One setting: label, control, hint and the host's message. */
export function SettingField({ form, field }: { form: SettingsForm; field: Field }) {
  const id = fieldId(form.plugin, field.key);
  const error = form.errors.value[field.key];
  const hintId = field.hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  const group = field.kind === "radio" || field.kind === "checklist";
  const control = (
    <Control form={form} field={field} id={id} describedBy={describedBy} invalid={!!error} />
  );
  const messages = (
    <>
      {error
        ? (
          <p class="field-error" id={errorId} role="alert" data-testid={`error-${field.key}`}>
            {error}
          </p>
        )
        : null}
      {field.hint ? <p class="hint" id={hintId}>{field.hint}</p> : null}
    </>
  );
  if (group) {
    return (
      <fieldset
        class={`setting setting-group ${error ? "has-error" : ""}`}
        data-setting={field.key}
      >
        <legend>{field.label}</legend>
        {control}
        {messages}
      </fieldset>
    );
  }
  return (
    <div
      class={`setting setting-${field.kind} ${error ? "has-error" : ""}`}
      data-setting={field.key}
    >
      <label for={id}>{field.label}</label>
      {control}
      {messages}
    </div>
  );
}
