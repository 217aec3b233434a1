/**
 * `GET /plugins/<id>/settings`: the uptime plugin's settings screen.
 *
 * @module
 */
import { page } from "../../../lib/http/mod.ts";
import { definePluginPages, SettingsFrame, settingsProps } from "../../../lib/host/mod.ts";
import UptimeSettings from "../islands/UptimeSettings.tsx";
import { PLUGIN_ID } from "../id.ts";

const define = definePluginPages();

/** Page metadata. */
export const meta = { title: "Uptime settings" };

/** The plugin's settings. */
export const handler = define.handlers({ GET: (c) => page(settingsProps(c, PLUGIN_ID)) });

/** The uptime plugin's settings page. */
export default define.page<typeof handler>(function UptimeSettingsPage({ data, state, url }) {
  return (
    <SettingsFrame title="Uptime settings" tabs={state.settingsNav} path={url.pathname}>
      <UptimeSettings {...data} />
    </SettingsFrame>
  );
});
