/**
 * A chart.js chart on a canvas, drawn in the browser (the server renders the empty frame). The
 * spec is JSON, so a page can pass it to an island as props. Updating `spec` redraws in place.
 *
 * @module
 */
import { useEffect, useRef } from "preact/hooks";
import { loadChart } from "../lib/shared/charts/load.ts";
import { chartColors } from "../lib/shared/charts/theme.ts";

/** One data series. */
export interface SeriesSpec {
  label: string;
  data: (number | null | { x: number; y: number; label?: string })[];
  /** CSS colours; one per point for bar/doughnut. */
  color?: string | string[];
}

/** A JSON description of a chart. */
export interface ChartSpec {
  type: "bar" | "doughnut" | "line" | "scatter";
  labels?: string[];
  series: SeriesSpec[];
  /** Horizontal bars. */
  horizontal?: boolean;
  xTitle?: string;
  yTitle?: string;
}

/** The palette used when a series names no colour. */
export const PALETTE = [
  "#4f7cff",
  "#22b07d",
  "#f5a524",
  "#e5484d",
  "#8e4ec6",
  "#12a5b5",
  "#d6409f",
  "#7c8a99",
  "#a18072",
  "#3e9b4f",
];

/** The chart.js configuration of a spec (colours not named come from the palette). */
// deno-lint-ignore no-explicit-any
export function toConfig(spec: ChartSpec, surface = "#ffffff"): any {
  const round = spec.type === "doughnut";
  const datasets = spec.series.map((s, i) => ({
    label: s.label,
    data: s.data,
    backgroundColor: s.color ??
      (round || spec.type === "bar" && spec.series.length === 1
        ? spec.labels?.map((_, j) => PALETTE[j % PALETTE.length]) ?? PALETTE[i]
        : PALETTE[i % PALETTE.length]),
    borderColor: round ? surface : (s.color ?? PALETTE[i % PALETTE.length]),
    // Slice borders take the card's colour again when the scheme changes (charts/theme.ts).
    ...(round ? { surfaceBorder: true } : {}),
    pointRadius: spec.type === "scatter" ? 5 : 3,
    tension: 0.2,
    spanGaps: true,
  }));
  const axis = (title?: string) => ({ title: { display: !!title, text: title ?? "" } });
  return {
    type: spec.type,
    data: { labels: spec.labels ?? [], datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: spec.horizontal ? "y" : "x",
      plugins: { legend: { display: round || spec.series.length > 1 } },
      scales: round ? {} : { x: axis(spec.xTitle), y: { ...axis(spec.yTitle), beginAtZero: true } },
    },
  };
}

/** Props of {@linkcode ChartCanvas}. */
export interface ChartCanvasProps {
  id: string;
  spec: ChartSpec;
  /** Height: `normal` 280 px, `small` 220 px (classes, not inline styles: the CSP forbids them). @default "normal" */
  size?: "normal" | "small";
  label?: string;
}

/** Draws `spec` with chart.js once in the browser. */
export function ChartCanvas(props: ChartCanvasProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // deno-lint-ignore no-explicit-any
  const chart = useRef<any>(null);
  useEffect(() => {
    let cancelled = false;
    loadChart(props.spec.type).then((Chart) => {
      if (cancelled || !canvas.current) return;
      const config = toConfig(props.spec, chartColors().surface);
      if (chart.current) {
        // Options too: a second series brings its legend (the colours come from the defaults,
        // which follow the scheme).
        chart.current.data = config.data;
        chart.current.options = config.options;
        chart.current.update("none");
      } else chart.current = new Chart(canvas.current, config);
      canvas.current.dataset.drawn = "true";
    });
    return () => {
      cancelled = true;
    };
  }, [JSON.stringify(props.spec)]);
  useEffect(() => () => chart.current?.destroy(), []);
  return (
    <div class={props.size === "small" ? "chart small" : "chart"}>
      <canvas id={props.id} ref={canvas} role="img" aria-label={props.label ?? props.id} />
    </div>
  );
}
