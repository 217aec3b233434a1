/**
 * The dashboard's views in the top bar.
 *
 * @module
 */
import type { NavLink } from "../web/state.ts";

/** One link per view of the dashboard. */
export const DASHBOARD_NAV: readonly NavLink[] = [
  { href: "/", label: "Home" },
  { href: "/benchmark", label: "Benchmark" },
  { href: "/results", label: "Results" },
  { href: "/comparison", label: "Comparison" },
];
