import { useEffect, useState } from "preact/hooks";
import {
  compactToggleMs,
  ERROR_RETRY_MS,
  isCompact,
  nextPollMs,
  type UptimeView,
  widgetState,
} from "../widget.ts";

/** Props of the navbar uptime widget. */
export interface UptimeWidgetProps {
  /** The uptime endpoint. */
  endpoint?: string;
}

/**
 * The navbar uptime widget. Polling starts once the island is mounted (the page's startup is
 * complete), adapts to `poll_interval_seconds`, continues while the widget is hidden, and
 * alternates the two uptimes in compact mode.
 */
export default function UptimeWidget({ endpoint = "/api/plugin/host_uptime" }: UptimeWidgetProps) {
  const [view, setView] = useState<UptimeView | null>(null);
  const [failed, setFailed] = useState(false);
  const [phase, setPhase] = useState(0);
  const [now, setNow] = useState(0);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      let delay = ERROR_RETRY_MS;
      try {
        const res = await fetch(endpoint, { credentials: "same-origin" });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const next = await res.json() as UptimeView;
        setView(next);
        setFailed(false);
        setNow(Date.now());
        delay = nextPollMs(next);
      } catch {
        setFailed(true);
      }
      if (!stopped) timer = setTimeout(poll, delay);
    };
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [endpoint]);

  const compact = view !== null && isCompact(view);
  const toggleMs = view ? compactToggleMs(view) : 5000;
  useEffect(() => {
    if (!compact) return;
    const id = setInterval(() => setPhase((p) => p + 1), toggleMs);
    return () => clearInterval(id);
  }, [compact, toggleMs]);

  if (view === null) {
    return <span class="uptime" data-testid="uptime">{failed ? "Error" : "Loading..."}</span>;
  }
  const state = widgetState(view, phase, now);
  return (
    <span
      class={`uptime${state.unknown ? " uptime-unknown" : ""}`}
      data-testid="uptime"
      hidden={!state.visible}
      title={state.tooltip}
    >
      {failed ? "Error" : state.text}
      {state.unknown && view.uptime_note
        ? <small class="uptime-note">{view.uptime_note}</small>
        : null}
    </span>
  );
}
