import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import {
  API_BASE,
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
export default function UptimeWidget({ endpoint = API_BASE }: UptimeWidgetProps) {
  const view = useSignal<UptimeView | null>(null);
  const failed = useSignal(false);
  const phase = useSignal(0);
  const now = useSignal(0);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      let delay = ERROR_RETRY_MS;
      try {
        const res = await fetch(endpoint, { credentials: "same-origin" });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const next = await res.json() as UptimeView;
        view.value = next;
        failed.value = false;
        now.value = Date.now();
        delay = nextPollMs(next);
      } catch {
        failed.value = true;
      }
      if (!stopped) timer = setTimeout(poll, delay);
    };
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [endpoint]);

  const current = view.value;
  const compact = current !== null && isCompact(current);
  const toggleMs = current ? compactToggleMs(current) : 5000;
  useEffect(() => {
    if (!compact) return;
    const id = setInterval(() => phase.value++, toggleMs);
    return () => clearInterval(id);
  }, [compact, toggleMs]);

  if (current === null) {
    return <span class="uptime" data-testid="uptime">{failed.value ? "Error" : "Loading..."}</span>;
  }
  const state = widgetState(current, phase.value, now.value);
  return (
    <span
      class={`uptime${state.unknown ? " uptime-unknown" : ""}`}
      data-testid="uptime"
      hidden={!state.visible}
      title={state.tooltip}
    >
      {failed.value ? "Error" : state.text}
      {state.unknown && current.uptime_note
        ? <small class="uptime-note">{current.uptime_note}</small>
        : null}
    </span>
  );
}
