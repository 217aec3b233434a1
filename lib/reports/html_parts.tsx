/**
 * Building blocks of the HTML report: sections and the sortable table of entries.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import type { ReportEntry } from "./model.ts";

/** A titled section. */
export function Section(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section id={props.id}>
      <h2>{props.title}</h2>
      {props.children}
    </section>
  );
}

/**
 * A column of {@linkcode Table}: head, cell text, an optional sort value (a numeric column,
 * right-aligned) and whether its text may wrap (names; numbers never do).
 */
export type Col = {
  head: string;
  value: (e: ReportEntry) => string;
  sort?: (e: ReportEntry) => unknown;
  wrap?: boolean;
};

/**
 * A sortable table of entries (`data-v` carries the sort value). With `stacked`, on a narrow
 * screen each row becomes a card of labelled values (`data-label`) instead of a wide table.
 */
export function Table(props: { cols: Col[]; rows: ReportEntry[]; id: string; stacked?: boolean }) {
  return (
    <div class="scroll">
      <table class={props.stacked ? "sortable stacked" : "sortable"} id={props.id}>
        <thead>
          <tr>{props.cols.map((c) => <th key={c.head} class={c.sort ? "n" : ""}>{c.head}</th>)}</tr>
        </thead>
        <tbody>
          {props.rows.map((e) => (
            <tr key={e.row.id}>
              {props.cols.map((c) => {
                const v = c.sort ? c.sort(e) : c.value(e);
                return (
                  <td
                    key={c.head}
                    class={c.sort ? "n" : c.wrap ? "wrap" : ""}
                    data-v={v === null ? "" : String(v)}
                    data-label={c.head}
                  >
                    {c.value(e)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
