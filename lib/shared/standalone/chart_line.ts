/**
 * Standalone bundle `/_islands/chart_line.js`: chart.js with only what a line chart, on a category or a linear x axis, needs
 * registered, bundled on its own (`deno task build`), so a page drawing this type ships
 * chart.js's core and these parts, nothing else.
 *
 * @module
 */
import {
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { useThemeColors } from "../charts/theme.ts";

Chart.register(
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);
useThemeColors(Chart);

export { Chart };
