/**
 * The benchmark form: sections (basic and the models' filters open, sampling, model load and
 * advanced folded), each field with its label, the flag as a hint, the server's default as the
 * placeholder, and the server's complaint about it under it (marked invalid, its section
 * opened).
 *
 * @module
 */
import type { FormField, FormSection, FormValues } from "../lib/shared/form_fields.ts";

/** Props of {@linkcode BenchForm}. */
export interface BenchFormProps {
  sections: FormSection[];
  values: FormValues;
  /** Field id → the server's message about it. */
  errors: Record<string, string>;
  onChange(id: string, value: string | boolean): void;
}

type FieldProps =
  & { field: FormField; value: string | boolean | undefined; error?: string }
  & Pick<
    BenchFormProps,
    "onChange"
  >;

function Field({ field: f, value, error, onChange }: FieldProps) {
  const id = `field-${f.id}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = error ? `${errorId} ${hintId}` : hintId;
  const text = typeof value === "string" ? value : "";
  const set = (v: string | boolean) => onChange(f.id, v);
  const messages = (
    <>
      {error && <span class="field-error" id={errorId}>{error}</span>}
      <small id={hintId} class="field-hint">{f.hint}</small>
    </>
  );
  if (f.control === "check") {
    return (
      <div class={`field check-field${error ? " invalid" : ""}`}>
        <label class="check">
          <input
            id={id}
            name={f.id}
            type="checkbox"
            checked={value === true}
            aria-invalid={error ? "true" : undefined}
            aria-describedby={described}
            onChange={(e) => set((e.target as HTMLInputElement).checked)}
          />
          {f.label}
        </label>
        {messages}
      </div>
    );
  }
  const common = {
    id,
    name: f.id,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": described,
  } as const;
  let control;
  if (f.control === "select" || f.control === "tristate") {
    control = (
      <select
        {...common}
        value={text}
        onChange={(e) => set((e.target as HTMLSelectElement).value)}
      >
        <option value="">{f.placeholder ?? "Default"}</option>
        {(f.choices ?? []).map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </select>
    );
  } else if (f.control === "textarea") {
    control = (
      <textarea
        {...common}
        rows={2}
        value={text}
        placeholder={f.placeholder}
        onInput={(e) => set((e.target as HTMLTextAreaElement).value)}
      />
    );
  } else {
    const type = f.control === "number"
      ? "number"
      : f.control === "password"
      ? "password"
      : f.control === "url"
      ? "url"
      : "text";
    control = (
      <input
        {...common}
        type={type}
        value={text}
        step={f.step}
        min={f.min}
        max={f.max}
        placeholder={f.placeholder}
        autocomplete="off"
        onInput={(e) => set((e.target as HTMLInputElement).value)}
      />
    );
  }
  return (
    <div class={`field${error ? " invalid" : ""}${f.control === "textarea" ? " wide" : ""}`}>
      <label for={id}>{f.label}</label>
      {control}
      {messages}
    </div>
  );
}

/** Every section of the form. */
export default function BenchForm({ sections, values, errors, onChange }: BenchFormProps) {
  return (
    <div class="flag-form" id="bench-form">
      {sections.map((s) => {
        const invalid = s.fields.some((f) => errors[f.id]);
        return (
          <details key={s.id} id={`section-${s.id}`} open={s.open || invalid}>
            <summary>{s.title}</summary>
            <div class="fields">
              {s.fields.map((f) => (
                <Field
                  key={f.id}
                  field={f}
                  value={values[f.id]}
                  error={errors[f.id]}
                  onChange={onChange}
                />
              ))}
            </div>
          </details>
        );
      })}
    </div>
  );
}
