/**
 * The results table: one row per identity (variant × backend × workload × load values × machine),
 * a sortable column per figure (the speed right after the model, so a phone shows it), the
 * machine it ran on ("unknown machine" for results stored before machines were), the parallel
 * rounds' total speed, the model's short name linking to its history (full id on hover) with its workload
 * beneath when one was set, a "partial" mark on a result some of whose runs failed, a delete button per
 * row, what to do when the filters match nothing, and what the Δ and parallel columns mean.
 *
 * @module
 */
import { shortModelName } from "../lib/shared/model_name.ts";
import { dateTime, fixed, parallelSpeed, signedPercent } from "../lib/shared/format.ts";
import { comparisonHref } from "./links.ts";
import { type ResultRow, type ResultsState, UNKNOWN_MACHINE } from "./results_state.ts";

const COLUMNS: [string, string, number?][] = [
  ["model_key", "Model"],
  ["tokens_per_sec_mean", "tok/s", 1],
  ["speed_delta_pct", "Δ"],
  ["ttft_ms_mean", "TTFT ms", 0],
  ["parallel_tokens_per_sec", "Parallel tok/s"],
  ["quantization", "Quant"],
  ["machine_name", "Machine"],
  ["backend", "Backend"],
  ["architecture", "Arch"],
  ["vram_mb", "VRAM MB", 0],
  ["tokens_per_sec_per_gb", "tok/s/GiB", 2],
  ["finished_at", "When"],
];

function cell(row: ResultRow, key: string, digits?: number) {
  const v = row[key];
  if (key === "model_key") {
    const failed = Number(row.runs_failed ?? 0);
    return (
      <>
        <a href={comparisonHref(String(v))} title={`${v}: its history`}>
          {shortModelName(String(v))}
        </a>
        {typeof row.workload === "string" && (
          <span class="workload" data-testid="workload">{row.workload}</span>
        )}
        {failed > 0 && (
          <>
            {" "}
            <span
              class="badge paused"
              data-testid="partial"
              title={`${failed} of its runs failed: its figures come from ${
                row.runs_ok ?? 0
              }; it is measured again at the next benchmark`}
            >
              partial
            </span>
          </>
        )}
      </>
    );
  }
  if (key === "speed_delta_pct") {
    const text = signedPercent(v);
    // Up or down only when Welch's test says so; else the change is within the runs' spread.
    if (row.speed_delta_significant === null) return text; // too few runs to tell
    if (row.speed_delta_significant !== 1) {
      return text === "–"
        ? text
        : (
          <span class="delta-none" title="no significant change (Welch's t-test, p ≥ 0.05)">
            ≈ {text}
          </span>
        );
    }
    const cls = text.startsWith("+") ? "delta-up" : text.startsWith("-") ? "delta-down" : "";
    return <span class={cls}>{text}</span>;
  }
  if (key === "parallel_tokens_per_sec") return parallelSpeed(v, row.n_parallel);
  if (key === "machine_name") {
    return typeof v === "string" ? v : <span class="unknown-machine">{UNKNOWN_MACHINE}</span>;
  }
  if (key === "finished_at") {
    // The date and the time each stay whole; the cell may put them on two lines.
    const [day, time] = dateTime(v).split(" ");
    return time
      ? (
        <>
          <span class="nowrap">{day}</span> <span class="nowrap">{time}</span>
        </>
      )
      : day;
  }
  if (digits !== undefined) return fixed(v, digits);
  return v === null || v === undefined ? "–" : String(v);
}

/** What is said instead of results when none passes the filters (or there are none). */
function NoMatch({ s }: { s: ResultsState }) {
  const what = [
    s.text.value ? `“${s.text.value}”` : "",
    s.quant.value ? `quantization ${s.quant.value}` : "",
    s.machine.value
      ? `machine ${s.machines.value.find((m) => m.id === s.machine.value)?.name ?? ""}`
      : "",
  ].filter(Boolean).join(" and ");
  return (
    <p class="no-match" id="results-empty" role="status">
      {s.rows.value.length === 0
        ? (
          <>
            No results yet: start a benchmark on the <a href="/benchmark">Benchmark</a> page.
          </>
        )
        : (
          <>
            No result matches {what}.{" "}
            <button type="button" class="link" id="clear-filters" onClick={s.clearFilters}>
              Clear the filters
            </button>
          </>
        )}
    </p>
  );
}

/** The table of the shown rows. */
export function ResultsTable({ s }: { s: ResultsState }) {
  const sort = s.sort.value;
  const shown = s.shown.value;
  if (s.rows.value.length === 0) {
    return (
      <div class="card">
        <NoMatch s={s} />
      </div>
    );
  }
  return (
    <div class="card">
      {shown.length === 0 && <NoMatch s={s} />}
      <div class="scroll" tabIndex={0} role="region" aria-label="Results table">
        <table class="table results-table" id="results-table">
          <thead>
            <tr>
              {COLUMNS.map(([key, label]) => (
                <th
                  key={key}
                  aria-sort={sort.key === key
                    ? (sort.desc ? "descending" : "ascending")
                    : undefined}
                >
                  <button type="button" class="sort" data-sort={key} onClick={() => s.sortBy(key)}>
                    {label}
                    {sort.key === key ? (sort.desc ? " ▼" : " ▲") : ""}
                  </button>
                </th>
              ))}
              <th>
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={String(r.result_id)}>
                {COLUMNS.map(([key, , digits]) => (
                  <td key={key} class={key === "finished_at" ? "when" : undefined}>
                    {cell(r, key, digits)}
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-label={`Delete ${r.model_key}`}
                    title="Deletes every stored result of this model variant"
                    onClick={() => s.remove(String(r.model_key))}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="hint" id="delta-legend">
        Δ: change of the mean speed against the variant's previous result with the same backend,
        parameters and machine (+ faster, − slower, – no such result); ≈ marks a change Welch's
        t-test does not find significant (p ≥ 0.05). Parallel tok/s: the total output speed of ×N
        requests at once (--n-parallel N). A model's name opens its history on Comparison.
      </p>
    </div>
  );
}
