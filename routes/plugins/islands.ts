/**
 * The islands of the plugin host's pages, registered for the server's island markers (they are
 * built with every other island, see `routes/_islands.ts`), and the static folder.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import LogViewer from "../../islands/LogViewer.tsx";
import PowerPanel from "../../islands/PowerPanel.tsx";
import TempEtaNavbar from "../../islands/TempEtaNavbar.tsx";
import TempEtaPanel from "../../islands/TempEtaPanel.tsx";
import UptimeWidget from "../../islands/UptimeWidget.tsx";

/** Every island the host pages use, by name (the bundle is `/_islands/<name>.js`). */
export const HOST_ISLANDS = { LogViewer, PowerPanel, TempEtaNavbar, TempEtaPanel, UptimeWidget };

/** The folder of static files (the built islands live in `_islands/`). */
export const STATIC_ROOT: string = fileURLToPath(new URL("../../static", import.meta.url));
