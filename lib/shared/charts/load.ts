/**
 * Loads chart.js for one chart type on demand. Each type is a standalone bundle
 * (`lib/shared/standalone/chart_<type>.ts`, built alone into `/_islands/chart_<type>.js`) that
 * registers only the controller, elements and scales the type draws with, so a page ships
 * chart.js's core plus the parts of the charts it shows (esbuild cannot split chart.js's single
 * module between chunks, so a shared chunk would hold every type's parts). Browser code.
 *
 * @module
 */
import type { Chart } from "chart.js";

/** The chart types the pages draw. */
export type ChartType = "bar" | "doughnut" | "line" | "scatter";

/** The URL of a type's bundle. */
export function chartBundleUrl(type: ChartType): string {
  return `/_islands/chart_${type}.js`;
}

/** chart.js, ready to draw a chart of `type` (loaded once per type). */
export async function loadChart(type: ChartType): Promise<typeof Chart> {
  const url = chartBundleUrl(type);
  const mod: { Chart: typeof Chart } = await import(url);
  return mod.Chart;
}
