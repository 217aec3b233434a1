/**
 * The graph of the heaters' temperatures, targets and ETAs over the last minutes (chart.js,
 * drawn in place on every change of the history).
 *
 * @module
 */
import { useEffect, useRef } from "preact/hooks";
import { loadChart } from "../../../lib/shared/charts/load.ts";
import { heaterName, type HistoryPoint, isActiveHistory } from "../status_feed.ts";

const COLORS = ["#e5484d", "#4f7cff", "#22b07d", "#f5a524", "#8e4ec6", "#12a5b5"];

/** The temperature and ETA history graph (chart.js, loaded on demand). */
export function EtaGraph(
  { history, windowSeconds }: { history: Record<string, HistoryPoint[]>; windowSeconds: number },
) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // deno-lint-ignore no-explicit-any
  const chart = useRef<any>(null);
  const names = Object.keys(history).sort().filter((n) => isActiveHistory(history[n] ?? []));
  useEffect(() => {
    let cancelled = false;
    const now = Date.now();
    const oldest = Math.min(now, ...names.map((n) => history[n]?.[0]?.t ?? now));
    const min = -Math.min(windowSeconds, Math.max(30, Math.ceil((now - oldest) / 1000)));
    const datasets = names.flatMap((name, i) => {
      const color = COLORS[i % COLORS.length]!;
      const pts = history[name] ?? [];
      const xy = (f: (p: HistoryPoint) => number | null) =>
        pts.map((p) => ({ x: (p.t - now) / 1000, y: f(p) }));
      return [
        { label: `${heaterName(name)} °C`, data: xy((p) => p.actual), borderColor: color },
        {
          label: `${heaterName(name)} target`,
          data: xy((p) => p.target),
          borderColor: color,
          borderDash: [6, 4],
          borderWidth: 1,
        },
        {
          label: `${heaterName(name)} ETA s`,
          data: xy((p) => p.eta),
          borderColor: color,
          borderDash: [2, 2],
          yAxisID: "y1",
        },
      ].map((d) => ({ ...d, pointRadius: 0, tension: 0.2, spanGaps: false }));
    });
    loadChart("line").then((Chart) => {
      if (cancelled || !canvas.current) return;
      if (chart.current) {
        chart.current.data.datasets = datasets;
        chart.current.options.scales.x.min = min;
        chart.current.update("none");
        return;
      }
      chart.current = new Chart(canvas.current, {
        type: "line",
        data: { datasets },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          parsing: false,
          scales: {
            x: {
              type: "linear",
              min,
              max: 0,
              title: { display: true, text: "seconds" },
            },
            y: { title: { display: true, text: "°C" } },
            y1: {
              position: "right",
              beginAtZero: true,
              grid: { drawOnChartArea: false },
              title: { display: true, text: "ETA (s)" },
            },
          },
          plugins: { legend: { labels: { boxWidth: 12, font: { size: 10 } } } },
        },
      });
      canvas.current.dataset.drawn = "true";
    });
    return () => {
      cancelled = true;
    };
  }, [history]);
  useEffect(() => () => chart.current?.destroy(), []);
  // Empty axes say nothing: without a heater that heats or cools, the graph says why instead
  // (the canvas keeps its size underneath, hidden, so the chart is ready for the first line).
  const empty = names.length === 0;
  return (
    <div class={empty ? "eta-graph is-empty" : "eta-graph"} data-testid="eta-graph">
      <canvas
        ref={canvas}
        role="img"
        aria-label="Temperature and ETA history"
        aria-hidden={empty || undefined}
      />
      {empty
        ? (
          <p class="graph-empty" data-testid="graph-empty">
            No heater has a target: the graph draws a heater's temperature, target and ETA while it
            heats or cools.
          </p>
        )
        : null}
    </div>
  );
}
