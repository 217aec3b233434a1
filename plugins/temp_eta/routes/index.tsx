/**
 * `GET /plugins/temp_eta/`: the Temperature ETA panel (heaters, countdowns, history graph).
 *
 * @module
 */
import { definePluginPages } from "../../../lib/host/mod.ts";
import TempEtaPanel from "../islands/TempEtaPanel.tsx";

const define = definePluginPages();

/** Page metadata. */
export const meta = { title: "Temperature" };

/** The Temperature ETA page. */
export default define.page(function TemperaturePage() {
  return (
    <>
      <div class="page-head">
        <h1>Temperature</h1>
        <a href="/plugins/temp_eta/settings">Temperature ETA settings</a>
      </div>
      <TempEtaPanel />
    </>
  );
});
