/**
 * chart.js in the page's theme: text and grid colours come from the stylesheet's variables
 * (`--muted` text on the card, `--line` grid), read again and every chart redrawn when the
 * colour scheme changes, so axis labels keep their contrast in light and dark. Browser code.
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
    for (const instance of Object.values(chart.instances)) {
      for (const ds of instance.data.datasets) {
        if ((ds as { surfaceBorder?: boolean }).surfaceBorder) {
          (ds as { borderColor?: string }).borderColor = chartColors().surface;
        }
      }
      instance.update("none");
    }
  });
}
