/**
 * Results: the sortable, filterable results table, the speed-vs-VRAM scatter and the
 * model × quantization heatmap (the island refreshes them from `/api/results`).
 *
 * @module
 */
import ResultsBrowser from "../islands/ResultsBrowser.tsx";
import { define } from "../lib/dashboard/services.ts";
import { page } from "../lib/http/mod.ts";
import { resultsTable } from "../lib/store/mod.ts";

/** Page metadata. */
export const meta = { title: "Results" };

/** The same rows `/api/results` returns. */
export const handler = define.handlers({
  GET: (c) => page(resultsTable(c.var.services.store.db)),
});

/** The Results view. */
export default define.page<typeof handler>(function Results({ data: rows }) {
  return (
    <>
      <h1>Results</h1>
      <ResultsBrowser initial={rows} />
    </>
  );
});
