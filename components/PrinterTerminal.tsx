/**
 * The printer's terminal: the recent lines (sent, received and the host's own, each styled and
 * prefixed apart), following the newest line unless the reader scrolled up, at most
 * `TERMINAL_MAX_LINES` in the page.
 *
 * @module
 */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { linePrefix } from "../lib/shared/printer_connection.ts";
import type { ConnectionState } from "./connection_state.ts";

/** Distance from the bottom (px) within which the view keeps following new lines. */
const FOLLOW_PX = 24;

/** The terminal's lines. */
export function PrinterTerminal({ s }: { s: ConnectionState }) {
  const lines = s.lines.value;
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const stick = () => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  };
  useLayoutEffect(stick, [lines]);
  // A narrower view (a phone turned) wraps the lines anew: still show the newest.
  useEffect(() => {
    const observer = new ResizeObserver(stick);
    observer.observe(box.current!);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={box}
      class="terminal printer-terminal"
      role="log"
      aria-label="Terminal"
      aria-live="off"
      tabindex={0}
      data-testid="terminal"
      onScroll={(ev) => {
        const el = ev.currentTarget;
        follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX;
      }}
    >
      {lines.length === 0 ? <div class="term-line term-info">No lines yet.</div> : null}
      {lines.map((l, i) => {
        const prefix = linePrefix(l.direction);
        return (
          <div key={i} class={`term-line term-${l.direction}`}>
            {prefix ? <span class="term-prefix">{prefix}</span> : null}
            {prefix ? " " : null}
            {l.text}
          </div>
        );
      })}
    </div>
  );
}
