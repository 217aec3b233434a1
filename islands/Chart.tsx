/**
 * Island: one chart.js chart from a JSON spec (bar, doughnut, line, scatter).
 *
 * @module
 */
import { ChartCanvas, type ChartCanvasProps } from "../components/ChartCanvas.tsx";

/** Draws the chart in the browser. */
export default function Chart(props: ChartCanvasProps) {
  return <ChartCanvas {...props} />;
}
