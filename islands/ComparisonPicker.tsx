/**
 * Island: the Comparison view's model picker, and its machine picker when the model ran on
 * several machines. Choosing an entry opens its history at once (the URL is the selection:
 * `?model=` a model or one variant, `&machine=` one machine's lines); the noscript button does the
 * same without script. After a back or forward navigation the picker shows the URL's entry again.
 *
 * @module
 */
import { useEffect, useRef } from "preact/hooks";
import { comparisonHref } from "../components/links.ts";

/** A group of the picker: a model and its variants. */
export interface PickerGroup {
  model: string;
  /** The model's short name, shown. */
  label: string;
  variants: { key: string; label: string }[];
}

/** Props of the picker. */
export interface ComparisonPickerProps {
  groups: PickerGroup[];
  /** The URL's `model` (a model name or a variant key). */
  selected: string | null;
  /** The machines of the model (id, or `unknown`, and name); a picker shows with two or more. */
  machines?: { id: string; name: string }[];
  /** The URL's `machine`, or null for every machine. */
  machine?: string | null;
}

/** The picker. */
export default function ComparisonPicker(
  { groups, selected, machines = [], machine = null }: ComparisonPickerProps,
) {
  const select = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    // A page restored from the back/forward cache keeps what was picked before leaving.
    const restore = () => {
      const model = new URL(location.href).searchParams.get("model");
      if (select.current && model !== null) select.current.value = model;
    };
    addEventListener("pageshow", restore);
    return () => removeEventListener("pageshow", restore);
  }, []);
  return (
    <form method="get" action="/comparison" class="toolbar picker">
      <label for="model">Model</label>
      <select
        id="model"
        name="model"
        ref={select}
        autocomplete="off"
        value={selected ?? ""}
        onChange={(e) => location.assign(comparisonHref((e.target as HTMLSelectElement).value))}
      >
        {groups.map((g) => (
          <optgroup key={g.model} label={g.label}>
            <option value={g.model}>{g.label} · every variant</option>
            {g.variants.map((v) => <option key={v.key} value={v.key}>{v.label}</option>)}
          </optgroup>
        ))}
      </select>
      {machines.length > 1 && selected !== null && (
        <>
          <label for="machine">Machine</label>
          <select
            id="machine"
            name="machine"
            autocomplete="off"
            value={machine ?? ""}
            onChange={(e) =>
              location.assign(comparisonHref(selected, (e.target as HTMLSelectElement).value))}
          >
            <option value="">Every machine</option>
            {machines.map((m) => <option key={m.id} value={m.id}>{m.name}</option>)}
          </select>
        </>
      )}
      <noscript>
        <button type="submit">Show</button>
      </noscript>
    </form>
  );
}
