/**
 * The log viewer: file list, search with paging, export, live tail, alert badge and history.
 * Its state is signals (`../components/viewer_state.ts`); each part is a component of its own.
 *
 * @module
 */
import { useEffect, useMemo } from "preact/hooks";
import { AlertHistory } from "../components/AlertHistory.tsx";
import { LiveTail } from "../components/LiveTail.tsx";
import { SearchForm } from "../components/SearchForm.tsx";
import { SearchResults } from "../components/SearchResults.tsx";
import { createViewerState, type ViewerConfig } from "../components/viewer_state.ts";
import { ViewerToolbar } from "../components/ViewerToolbar.tsx";

/** Props of the log viewer. */
export type LogViewerProps = ViewerConfig;

/** The log viewer. */
export default function LogViewer(props: LogViewerProps) {
  const s = useMemo(() => createViewerState(props), []);
  useEffect(() => s.follow(), [s]);
  return (
    <div class="log-viewer">
      <ViewerToolbar s={s} />
      <SearchForm s={s} />
      {s.error.value ? <p class="error" role="alert">{s.error.value}</p> : null}
      <AlertHistory s={s} />
      <SearchResults s={s} />
      <LiveTail s={s} />
    </div>
  );
}
