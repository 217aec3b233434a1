/**
 * `GET /plugins/<id>/`: the Temperature ETA panel (heaters, countdowns, history graph).
 *
 * @module
 */
import { definePluginPages, settingsPathOf } from "../../../lib/host/mod.ts";
import { PLUGIN_ID } from "../id.ts";
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
        <a href={settingsPathOf(PLUGIN_ID)}>Temperature ETA settings</a>
      </div>
      <TempEtaPanel />
    </>
  );
});
