/**
 * `GET /plugins/<id>/settings`: the branch controller's settings screen.
 *
 * @module
 */
import { page } from "../../../lib/http/mod.ts";
import { definePluginPages, SettingsFrame, settingsProps } from "../../../lib/host/mod.ts";
import BranchSettings from "../islands/BranchSettings.tsx";
import { PLUGIN_ID } from "../id.ts";

const define = definePluginPages();

/** Page metadata. */
export const meta = { title: "Power settings" };

/** The plugin's settings. */
export const handler = define.handlers({ GET: (c) => page(settingsProps(c, PLUGIN_ID)) });

/** The branch controller's settings page. */
export default define.page<typeof handler>(function PowerSettingsPage({ data, state, url }) {
  return (
    <SettingsFrame title="Power settings" tabs={state.settingsNav} path={url.pathname}>
      <BranchSettings {...data} />
    </SettingsFrame>
  );
});
