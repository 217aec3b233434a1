/**
 * Standalone bundle `/_islands/chart_scatter.js`: chart.js with only what a scatter chart needs
 * registered, bundled on its own (`deno task build`), so a page drawing this type ships
 * chart.js's core and these parts, nothing else.
 *
 * @module
 */
import { Chart, Legend, LinearScale, PointElement, ScatterController, Tooltip } from "chart.js";
import { useThemeColors } from "../charts/theme.ts";

Chart.register(LinearScale, PointElement, ScatterController, Legend, Tooltip);
useThemeColors(Chart);

export { Chart };
