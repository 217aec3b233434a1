/**
 * The live view of a running benchmark: the output as a terminal, tokens per second per run and
 * the hardware samples as charts.
 *
 * @module
 */
import type { ReadonlySignal } from "@preact/signals";
import { ChartCanvas } from "./ChartCanvas.tsx";
import type { LiveState } from "./live_state.ts";

/** The live output and charts. */
export function LiveView({ live }: { live: ReadonlySignal<LiveState> }) {
  const l = live.value;
  return (
    <section class="grid2">
      <div class="card">
        <h2>Live output</h2>
        <pre id="live-output" class="terminal" aria-live="polite">{l.output}</pre>
      </div>
      <div class="card">
        <h2>Tokens/s per run</h2>
        <ChartCanvas
          id="chart-live-runs"
          size="small"
          spec={{
            type: "line",
            labels: l.runs.map((r) => r.label),
            series: [{ label: "tok/s", data: l.runs.map((r) => r.speed) }],
          }}
        />
        <h2>Hardware</h2>
        <ChartCanvas
          id="chart-live-hw"
          size="small"
          spec={{
            type: "line",
            labels: l.hardware.map((h) => h.t),
            series: [
              { label: "temp °C", data: l.hardware.map((h) => h.temp) },
              { label: "CPU %", data: l.hardware.map((h) => h.cpu) },
              { label: "RAM GB", data: l.hardware.map((h) => h.ram) },
            ],
          }}
        />
      </div>
    </section>
  );
}
