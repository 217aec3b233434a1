/**
 * Island: the results browser. Table (sort by any column, filter by text, quantization and
 * machine), speed-vs-VRAM scatter and the model × quantization heatmap, all from `GET /api/results`;
 * deleting a model or clearing the cache (with a backup) calls the cache API. Its state is
 * signals (`results_state.ts`). With no result, or none passing the filters, one message says
 * why and what to do instead of empty charts.
 *
 * @module
 */
import { useEffect, useMemo } from "preact/hooks";
import { ResultsCharts } from "../components/ResultsCharts.tsx";
import { createResultsState, type ResultRow } from "../components/results_state.ts";
import { ResultsTable } from "../components/ResultsTable.tsx";

/** The filters, the count and the cache's clear button. */
function ResultsToolbar({ s }: { s: ReturnType<typeof createResultsState> }) {
  return (
    <div class="toolbar">
      <input
        id="filter-text"
        type="search"
        aria-label="Filter by model or architecture"
        placeholder="Filter by model or architecture"
        value={s.text.value}
        onInput={(e) => s.text.value = (e.target as HTMLInputElement).value}
      />
      <select
        id="filter-quant"
        aria-label="Quantization"
        value={s.quant.value}
        onChange={(e) => s.quant.value = (e.target as HTMLSelectElement).value}
      >
        <option value="">All quantizations</option>
        {s.quants.value.map((q) => <option key={q} value={q}>{q}</option>)}
      </select>
      {
        // One machine (or none recorded): nothing to choose between.
        s.machines.value.length > 1 && (
          <select
            id="filter-machine"
            aria-label="Machine"
            value={s.machine.value}
            onChange={(e) => s.machine.value = (e.target as HTMLSelectElement).value}
          >
            <option value="">All machines</option>
            {s.machines.value.map((m) => <option key={m.id} value={m.id}>{m.name}</option>)}
          </select>
        )
      }
      <span id="results-count">{s.shown.value.length} of {s.rows.value.length}</span>
      <button type="button" class="danger" onClick={s.clear}>Clear cache</button>
    </div>
  );
}

/** The results browser. */
export default function ResultsBrowser(props: { initial: ResultRow[] }) {
  const s = useMemo(() => createResultsState(props.initial), []);
  useEffect(() => {
    s.reload().catch((e) => s.message.value = String(e.message ?? e));
  }, [s]);
  // With no result at all there is nothing to filter, clear or chart: only what to do.
  const any = s.rows.value.length > 0;
  return (
    <div class="results">
      {any && <ResultsToolbar s={s} />}
      {s.message.value && <p class="message" role="status">{s.message.value}</p>}
      <ResultsTable s={s} />
      {s.shown.value.length > 0 && <ResultsCharts s={s} />}
    </div>
  );
}
