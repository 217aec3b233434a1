/**
 * `GET /plugins/<id>/`: the power panel (ten channel cards, live through the push socket).
 *
 * @module
 */
import { definePluginPages, hasPermission, settingsPathOf } from "../../../lib/host/mod.ts";
import { PLUGIN_ID } from "../id.ts";
import PowerPanel from "../islands/PowerPanel.tsx";

const define = definePluginPages();

/** Page metadata. */
export const meta = { title: "Power" };

/** The branch power controller page. */
export default define.page(function PowerPage({ state }) {
  return (
    <>
      <div class="page-head">
        <h1>Power</h1>
        <a href={settingsPathOf(PLUGIN_ID)}>Hub and automation settings</a>
      </div>
      <PowerPanel
        csrfToken={state.csrfToken}
        canControl={state.csrfToken !== "" &&
          hasPermission(state.principal.permissions, "CONTROL")}
      />
    </>
  );
});
