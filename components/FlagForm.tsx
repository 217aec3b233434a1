/**
 * The benchmark form: one field per command-line flag, grouped by category (collapsible), with
 * the flag's description as help text.
 *
 * @module
 */
import type { FlagView, FormValues } from "./flag_values.ts";

/** Props of {@linkcode FlagForm}. */
export interface FlagFormProps {
  flags: FlagView[];
  values: FormValues;
  onChange(long: string, value: string | boolean): void;
}

function Field(props: { flag: FlagView; value: string | boolean | undefined } & FlagFormProps) {
  const f = props.flag;
  const id = `flag-${f.long}`;
  const set = (v: string | boolean) => props.onChange(f.long, v);
  if (f.kind === "bool") {
    return (
      <label class="check" title={f.description}>
        <input
          id={id}
          name={f.long}
          type="checkbox"
          checked={props.value === true}
          onChange={(e) => set((e.target as HTMLInputElement).checked)}
        />
        --{f.long}
      </label>
    );
  }
  const common = {
    id,
    name: f.long,
    value: typeof props.value === "string" ? props.value : "",
    title: f.description,
  };
  return (
    <label class="field">
      <span>--{f.long}</span>
      {f.kind === "choice"
        ? (
          <select {...common} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
            <option value="">(default)</option>
            {(f.choices ?? []).map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        )
        : (
          <input
            {...common}
            type={f.kind === "int" || f.kind === "float"
              ? "number"
              : f.long === "api-token"
              ? "password"
              : "text"}
            step={f.kind === "float" ? "any" : undefined}
            min={f.min}
            max={f.max}
            placeholder={f.fallback === undefined ? f.arg ?? "" : String(f.fallback)}
            onInput={(e) => set((e.target as HTMLInputElement).value)}
          />
        )}
      <small>{f.description}</small>
    </label>
  );
}

/** Every flag, grouped. */
export default function FlagForm(props: FlagFormProps) {
  const categories = [...new Set(props.flags.map((f) => f.category))];
  return (
    <div class="flag-form">
      {categories.map((cat, i) => (
        <details key={cat} open={i === 0}>
          <summary>{cat}</summary>
          <div class="fields">
            {props.flags.filter((f) => f.category === cat).map((f) => (
              <Field key={f.long} {...props} flag={f} value={props.values[f.long]} />
            ))}
          </div>
        </details>
      ))}
    </div>
  );
}
