/**
 * Standalone bundle `/_islands/chart_doughnut.js`: chart.js with only what a doughnut chart needs
 * registered, bundled on its own (`deno task build`), so a page drawing this type ships
 * chart.js's core and these parts, nothing else.
 *
 * @module
 */
import { ArcElement, Chart, DoughnutController, Legend, Tooltip } from "chart.js";
import { useThemeColors } from "../charts/theme.ts";

Chart.register(ArcElement, DoughnutController, Legend, Tooltip);
useThemeColors(Chart);

export { Chart };
