/**
 * chart.js in the page's theme: text and grid colours come from the stylesheet's variables
 * (`--muted` text on the card, `--line` grid), read again and every chart (legend, axes, grid,
 * slice borders) recoloured and redrawn when the colour scheme changes, so axis labels keep their
 * contrast in light and dark. Browser code.
 *
 * @module
 */
import type { Chart } from "chart.js";

/** The colours charts take from the page. */
export interface ChartColors {
  /** Text: ticks, titles, legend. */
  text: string;
  /** Grid lines and axis borders. */
  grid: string;
  /** The card behind the chart (doughnut slice borders). */
  surface: string;
}

/** The page's chart colours now (fallbacks: the light theme's). */
export function chartColors(): ChartColors {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v("--muted", "#5d6b82"),
    grid: v("--line", "#dfe4ee"),
    surface: v("--card", "#ffffff"),
  };
}

let followed = false;

/** One scale's options as chart.js keeps them (only the coloured parts). */
interface ScaleColors {
  ticks?: { color?: unknown };
  title?: { color?: unknown };
  pointLabels?: { color?: unknown };
  grid?: { color?: unknown };
  border?: { color?: unknown };
  angleLines?: { color?: unknown };
}

/**
 * Gives a drawn chart's scales the colours `c`. chart.js copies the defaults' colours into each
 * scale's options when the chart is made, so new defaults alone reach the legend but not the
 * axes: their ticks and titles would keep the old scheme's text colour (unreadable on the new
 * card) and their grid the old lines.
 */
function recolorScales(scales: Record<string, ScaleColors | undefined>, c: ChartColors): void {
  for (const scale of Object.values(scales)) {
    if (!scale) continue;
    for (const part of [scale.ticks, scale.title, scale.pointLabels]) {
      if (part) part.color = c.text;
    }
    for (const part of [scale.grid, scale.border, scale.angleLines]) {
      if (part) part.color = c.grid;
    }
  }
}

/** Sets chart.js's defaults to the page's colours and keeps them in step with the scheme. */
export function useThemeColors(chart: typeof Chart): void {
  const apply = () => {
    const c = chartColors();
    chart.defaults.color = c.text;
    chart.defaults.borderColor = c.grid;
  };
  apply();
  if (followed) return;
  followed = true;
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    apply();
    const c = chartColors();
    for (const instance of Object.values(chart.instances)) {
      recolorScales(
        (instance.config.options?.scales ?? {}) as Record<string, ScaleColors | undefined>,
        c,
      );
      for (const ds of instance.data.datasets) {
        if ((ds as { surfaceBorder?: boolean }).surfaceBorder) {
          (ds as { borderColor?: string }).borderColor = c.surface;
        }
      }
      instance.update("none");
    }
  });
}
