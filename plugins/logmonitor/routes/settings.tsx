/**
 * `GET /plugins/<id>/settings`: the log monitor's settings screen.
 *
 * @module
 */
import { page } from "../../../lib/http/mod.ts";
import { SettingsFrame, settingsProps } from "../../../lib/host/mod.ts";
import LogMonitorSettings from "../islands/LogMonitorSettings.tsx";
import { listLogFiles } from "../files.ts";
import { readableLogs } from "../access.ts";
import { PLUGIN_ID } from "../id.ts";
import { define } from "../pages.ts";

/** Page metadata. */
export const meta = { title: "Log monitor settings" };

/** The settings and the log folder's files. */
export const handler = define.handlers({
  async GET(c) {
    const files = readableLogs(
      c.var.principal.permissions,
      (await listLogFiles(c.var.plugin.runtime.ctx.logDir)) ?? [],
    );
    return page({ ...settingsProps(c, PLUGIN_ID), files: files.map((f) => f.name) });
  },
});

/** The log monitor's settings page. */
export default define.page<typeof handler>(function LogMonitorSettingsPage({ data, state, url }) {
  return (
    <SettingsFrame title="Log monitor settings" tabs={state.settingsNav} path={url.pathname}>
      <LogMonitorSettings {...data} />
    </SettingsFrame>
  );
});
