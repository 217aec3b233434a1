/**
 * The serving sections of the HTML report: the parallel rounds, latency distributions, the
 * controlled workload's grid and the load curves, and the requested → applied parameter table.
 *
 * @module
 */
import { displayName, type ReportData, type ReportEntry } from "./model.ts";
import type { AppliedRow } from "./applied.ts";
import {
  GRID_HEADS,
  gridCells,
  hasLatency,
  isParallel,
  LATENCY_ROWS,
  latencyStats,
  loadCells,
  loadHeads,
  msText,
  PARALLEL_HEADS,
  PARALLEL_NOTE,
  parallelCells,
} from "./serving.ts";
import { type Col, Section, Table } from "./html_parts.tsx";

/** Rows of per-model cells (grid cells, load levels): the model, then the cells. */
function CellTable(
  props: {
    id: string;
    heads: string[];
    rows: { key: string; name: string; cells: string[] }[];
    /** Cells of lists (`29 / 52 / 61`) that may wrap after a slash, never inside a number. */
    lists?: number[];
  },
) {
  const text = (v: string, i: number) =>
    props.lists?.includes(i) ? v.replaceAll(" / ", "\u00a0/ ") : v;
  return (
    <div class="scroll">
      <table id={props.id}>
        <thead>
          <tr>
            <th>Model</th>
            {props.heads.map((h) => <th key={h}>{h}</th>)}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.key}>
              <td>{r.name}</td>
              {r.cells.map((v, i) => (
                <td key={i} class={`${i ? "n" : ""}${props.lists?.includes(i) ? " list" : ""}`}>
                  {text(v, i)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The parallel rounds of the entries that have them (nothing when none has). */
export function ParallelSection(props: { ranked: ReportEntry[] }) {
  const rows = props.ranked.filter(isParallel);
  if (rows.length === 0) return null;
  const number = (i: number) => (e: ReportEntry) => parseFloat(parallelCells(e)[i]!);
  return (
    <Section id="parallel" title="Parallel rounds: N requests at once">
      <Table
        id="parallel-table"
        rows={rows}
        stacked
        cols={[
          { head: "Model", value: displayName, wrap: true },
          ...PARALLEL_HEADS.map((head, i): Col => ({
            head,
            value: (e) => parallelCells(e)[i]!,
            sort: i < PARALLEL_HEADS.length - 1 ? number(i) : (e) => parallelCells(e)[i],
          })),
        ]}
      />
      <p class="muted">{PARALLEL_NOTE}</p>
    </Section>
  );
}

/** Requested and applied values; those that did not apply are marked. */
export function AppliedTable(props: { rows: AppliedRow[] }) {
  if (props.rows.length === 0) return null;
  return (
    <div class="scroll">
      <table id="applied-table">
        <thead>
          <tr>
            <th>Value</th>
            <th>Requested</th>
            <th>Applied (read back where the server reports it)</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.name} class={r.not_applied ? "not-applied" : ""}>
              <th>{r.name}</th>
              <td class="wrap">{r.requested}</td>
              <td class="wrap">
                {r.applied}
                {r.not_applied && <b class="warn">not applied{r.note ? `: ${r.note}` : ""}</b>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The latency, grid and load-curve sections (each only when the entries have it). */
export function ServingSections(props: { data: ReportData; ranked: ReportEntry[] }) {
  const { data, ranked } = props;
  return (
    <>
      {hasLatency(data.entries) && (
        <Section id="latency" title="Latency distributions (ms)">
          {
            /* One table per metric (as in the PDF): five percentiles of four metrics side by side
          would not fit the window. */
          }
          {LATENCY_ROWS.map(([label, metric]) => (
            <Table
              key={metric}
              id={`latency-table-${metric}`}
              rows={ranked}
              cols={[
                { head: label, value: displayName },
                ...latencyStats(metric, data.percentiles).map((stat): Col => ({
                  head: stat.label,
                  value: (e) => msText(stat.value(e)),
                  sort: stat.value,
                })),
              ]}
            />
          ))}
          <p class="muted">
            TTFT: request sent → first token event. TPOT: 1000 ÷ decode tokens/s. ITL: the gaps
            between token events, pooled over the runs. Latency: request sent → end of the stream.
            Percentiles over the measured runs (ITL: over the gaps).
          </p>
        </Section>
      )}
      {data.entries.some((e) => e.grid.length > 0) && (
        <Section id="grid" title="Controlled workload: pp and tg tokens/s ± std">
          <CellTable
            id="grid-table"
            heads={GRID_HEADS}
            rows={data.entries.flatMap((e) =>
              e.grid.map((c) => ({
                key: `${e.row.id}-${c.id}`,
                name: displayName(e),
                cells: gridCells(c),
              }))
            )}
          />
          <p class="muted">
            Prompt tokens: the target when the server's tokenizer confirmed it, ≈ the mean reached
            when calibrated. Output tokens: the target when the server forced it, else ≤ target.
          </p>
        </Section>
      )}
      {data.entries.some((e) => e.load_curve.length > 0) && (
        <Section id="load-curve" title="Load curves (the charts above draw them)">
          <CellTable
            id="load-table"
            heads={loadHeads(data.percentiles)}
            lists={[5, 6, 7]}
            rows={data.entries.flatMap((e) =>
              e.load_curve.map((l) => ({
                key: `${e.row.id}-${l.id}`,
                name: displayName(e),
                cells: loadCells(l, e.runs, data.percentiles),
              }))
            )}
          />
          <p class="muted">
            Output tok/s: every output token of the level ÷ its duration. Goodput: requests meeting
            the latency targets ÷ duration. Knee: the first level whose next adds less than 10 %.
          </p>
        </Section>
      )}
    </>
  );
}
