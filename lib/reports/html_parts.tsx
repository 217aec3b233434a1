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

/** A column of {@linkcode Table}: head, cell text and an optional sort value. */
export type Col = {
  head: string;
  value: (e: ReportEntry) => string;
  sort?: (e: ReportEntry) => unknown;
};

/** A sortable table of entries (`data-v` carries the sort value). */
export function Table(props: { cols: Col[]; rows: ReportEntry[]; id: string }) {
  return (
    <div class="scroll">
      <table class="sortable" id={props.id}>
        <thead>
          <tr>{props.cols.map((c) => <th key={c.head} class={c.sort ? "n" : ""}>{c.head}</th>)}</tr>
        </thead>
        <tbody>
          {props.rows.map((e) => (
            <tr key={e.row.id}>
              {props.cols.map((c) => {
                const v = c.sort ? c.sort(e) : c.value(e);
                return (
                  <td key={c.head} class={c.sort ? "n" : ""} data-v={v === null ? "" : String(v)}>
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
