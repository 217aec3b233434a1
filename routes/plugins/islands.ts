/**
 * The islands of the plugin host's pages (built into `static/_islands/`).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { IslandEntry } from "../../lib/http/islands.ts";

const at = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/** The project root. */
export const PROJECT_ROOT: string = at("../../");

/** Every island the host pages use. */
export const HOST_ISLANDS: IslandEntry[] = [
  { name: "LogViewer", path: at("../../islands/LogViewer.tsx") },
  { name: "UptimeWidget", path: at("../../islands/UptimeWidget.tsx") },
  { name: "TempEtaNavbar", path: at("../../islands/TempEtaNavbar.tsx") },
  { name: "PowerPanel", path: at("../../islands/PowerPanel.tsx") },
  { name: "TempEtaPanel", path: at("../../islands/TempEtaPanel.tsx") },
];

/** The folder of static files (the built islands live in `_islands/`). */
export const STATIC_ROOT: string = at("../../static");
