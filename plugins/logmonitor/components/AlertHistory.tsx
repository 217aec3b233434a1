/**
 * The alert history (the last 100 alerts), with a button that clears it.
 *
 * @module
 */
import type { ViewerState } from "./viewer_state.ts";

/** The alert history (while opened). */
export function AlertHistory({ s }: { s: ViewerState }) {
  const history = s.history.value;
  if (!history) return null;
  return (
    <section class="history" data-testid="history">
      <h2>
        Alert history ({history.length}){" "}
        <button type="button" onClick={s.clearHistory}>Clear</button>
      </h2>
      <ul>
        {history.map((h, i) => <li key={i}>{h.timestamp} {h.level} {h.source_file}: {h.message}
        </li>)}
      </ul>
    </section>
  );
}
