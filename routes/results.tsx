/**
 * Results: the sortable, filterable results table, the speed-vs-VRAM scatter and the
 * model × quantization heatmap (the island refreshes them from `/api/results`).
 *
 * @module
 */
import type { Context } from "hono";
import ResultsBrowser from "../islands/ResultsBrowser.tsx";
import { type DashboardEnv, servicesOf } from "../lib/control/services.ts";
import type { PageProps } from "../lib/http/fw_routes.ts";
import { resultsTable, type ResultsTableRow } from "../lib/store/dashboard.ts";

/** Page metadata. */
export const meta = { title: "Results" };

/** The same rows `/api/results` returns. */
export function data(c: Context<DashboardEnv>): ResultsTableRow[] {
  return resultsTable(servicesOf(c).store.db);
}

/** The Results view. */
export default function Results({ data: rows }: PageProps<ResultsTableRow[]>) {
  return (
    <>
      <h1>Results</h1>
      <ResultsBrowser initial={rows} />
    </>
  );
}
