/**
 * The results table: a sortable column per figure, the model's short name with its full id as
 * the title, and a delete button per row.
 *
 * @module
 */
import { shortModelName } from "../lib/shared/model_name.ts";
import { fmt, fmtPct, fmtTime } from "./format.ts";
import type { ResultRow, ResultsState } from "./results_state.ts";

const COLUMNS: [string, string, number?][] = [
  ["model_key", "Model"],
  ["quantization", "Quant"],
  ["architecture", "Arch"],
  ["tokens_per_sec_mean", "tok/s", 1],
  ["speed_delta_pct", "Δ"],
  ["ttft_ms_mean", "TTFT ms", 0],
  ["vram_mb", "VRAM MB", 0],
  ["tokens_per_sec_per_gb", "tok/s/GB", 2],
  ["finished_at", "When"],
];

function cell(row: ResultRow, key: string, digits?: number): string {
  const v = row[key];
  if (key === "speed_delta_pct") return fmtPct(v);
  if (key === "finished_at") return fmtTime(v);
  if (digits !== undefined) return fmt(v, digits);
  if (key === "model_key") return shortModelName(String(v)); // the full id is the cell's title
  return v === null || v === undefined ? "–" : String(v);
}

/** The table of the shown rows. */
export function ResultsTable({ s }: { s: ResultsState }) {
  const sort = s.sort.value;
  return (
    <div class="scroll card" tabIndex={0} role="region" aria-label="Results table">
      <table class="table" id="results-table">
        <thead>
          <tr>
            {COLUMNS.map(([key, label]) => (
              <th key={key}>
                <button type="button" class="sort" data-sort={key} onClick={() => s.sortBy(key)}>
                  {label}
                  {sort.key === key ? (sort.desc ? " ▼" : " ▲") : ""}
                </button>
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {s.shown.value.map((r) => (
            <tr key={String(r.model_key)}>
              {COLUMNS.map(([key, , digits]) => (
                <td key={key} title={key === "model_key" ? String(r.model_key) : undefined}>
                  {cell(r, key, digits)}
                </td>
              ))}
              <td>
                <button type="button" class="link" onClick={() => s.remove(String(r.model_key))}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
