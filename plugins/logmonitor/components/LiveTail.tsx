/**
 * The live tail: the lines pushed since it started (the last `max_stream_lines`).
 *
 * @module
 */
import { LogLines } from "./LogLines.tsx";
import type { ViewerState } from "./viewer_state.ts";

/** The live tail (nothing before it was started). */
export function LiveTail({ s }: { s: ViewerState }) {
  const lines = s.liveLines.value;
  if (!s.live.value && lines.length === 0) return null;
  return (
    <section class="live">
      <h2>Live: {s.file.value}</h2>
      <LogLines lines={lines} testId="live-lines" />
    </section>
  );
}
