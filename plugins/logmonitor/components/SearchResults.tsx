/**
 * A page of search results: the count, paging and export buttons and the entries.
 *
 * @module
 */
import { totalLabel } from "../browser_api.ts";
import { LogLines } from "./LogLines.tsx";
import type { ViewerState } from "./viewer_state.ts";

/** The current page of results (nothing before the first search). */
export function SearchResults({ s }: { s: ViewerState }) {
  const result = s.result.value;
  if (!result) return null;
  const offset = s.offset.value;
  const size = s.config.pageSize;
  return (
    <section class="results">
      <div class="results-head">
        <p data-testid="total">
          {result.results.length === 0
            ? "No matches"
            : `Matches ${offset + 1}-${offset + result.results.length} of ${
              totalLabel(result.total, offset, size)
            }`}
        </p>
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => s.search(Math.max(0, offset - size))}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={result.total <= offset + size}
          onClick={() => s.search(offset + size)}
          data-testid="next"
        >
          Next
        </button>
        <button type="button" onClick={() => s.exportAs("csv")}>Export CSV</button>
        <button type="button" onClick={() => s.exportAs("txt")}>Export TXT</button>
      </div>
      <LogLines lines={result.results} testId="results" />
    </section>
  );
}
