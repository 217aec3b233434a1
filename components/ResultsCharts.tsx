/**
 * The results' charts: speed against VRAM (a point per shown model that has a VRAM figure; when
 * none has, why and what to do) and the model × quantization heat map.
 *
 * @module
 */
import { shortModelName } from "../lib/shared/model_name.ts";
import { ChartCanvas } from "./ChartCanvas.tsx";
import HeatMap from "./HeatMap.tsx";
import type { ResultsState } from "./results_state.ts";

/** The scatter and the heat map of the shown rows (drawn only when some row is shown). */
export function ResultsCharts({ s }: { s: ResultsState }) {
  const shown = s.shown.value;
  const points = shown.filter((r) =>
    typeof r.vram_mb === "number" && typeof r.tokens_per_sec_mean === "number"
  );
  const missing = shown.length - points.length;
  return (
    <section class="grid2">
      <div class="card">
        <h2>Speed vs VRAM</h2>
        {points.length === 0
          ? (
            <p id="scatter-empty" class="chart-empty">
              <span>
                No VRAM figure yet: VRAM is measured while the hardware is sampled. Run a benchmark
                with “Sample the hardware” <span class="flag">(--enable-profiling)</span>{" "}
                to place the models by memory.
              </span>
            </p>
          )
          : (
            <>
              <ChartCanvas
                id="chart-scatter"
                label="Tokens per second against VRAM"
                spec={{
                  type: "scatter",
                  series: [{
                    label: "models",
                    data: points.map((r) => ({
                      x: r.vram_mb as number,
                      y: r.tokens_per_sec_mean as number,
                      label: shortModelName(String(r.model_key)),
                    })),
                  }],
                  xTitle: "VRAM (MB)",
                  yTitle: "tokens/s",
                }}
              />
              {missing > 0 && (
                <p class="hint" id="scatter-missing">
                  {missing} of {shown.length}{" "}
                  results have no VRAM figure (measured without --enable-profiling).
                </p>
              )}
            </>
          )}
      </div>
      <div class="card">
        <h2>Model × quantization (avg tok/s)</h2>
        <HeatMap rows={shown as never} />
      </div>
    </section>
  );
}
