/**
 * Standalone bundle `/_islands/chart_bar.js`: chart.js with only what a bar chart needs
 * registered, bundled on its own (`deno task build`), so a page drawing this type ships
 * chart.js's core and these parts, nothing else.
 *
 * @module
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
} from "chart.js";
import { useThemeColors } from "../charts/theme.ts";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);
useThemeColors(Chart);

export { Chart };
