/**
 * `GET /plugins/<id>/`: the log viewer (files, search, export, live tail, alerts), seeded
 * with the log folder's files and the plugin's settings.
 *
 * @module
 */
import { page } from "../../../lib/http/mod.ts";
import { settingsPathOf } from "../../../lib/host/mod.ts";
import { PLUGIN_ID } from "../id.ts";
import LogViewer from "../islands/LogViewer.tsx";
import { listLogFiles } from "../files.ts";
import { readableLogs } from "../access.ts";
import { define } from "../pages.ts";

/** Page metadata. */
export const meta = { title: "Log monitor" };

/** The viewer's files and settings. */
export const handler = define.handlers({
  async GET(c) {
    const rt = c.var.plugin.runtime;
    const s = rt.settings();
    return page({
      csrfToken: c.var.csrfToken,
      files: readableLogs(c.var.principal.permissions, (await listLogFiles(rt.ctx.logDir)) ?? []),
      defaultFile: s.default_log_file,
      pageSize: s.search_page_size,
      maxLiveLines: s.max_stream_lines,
      regexEnabled: s.regex_search_enabled,
    });
  },
});

/** The log viewer page. */
export default define.page<typeof handler>(function LogsPage({ data }) {
  return (
    <>
      <div class="page-head">
        <h1>Log monitor</h1>
        <a href={settingsPathOf(PLUGIN_ID)}>Log monitor settings</a>
      </div>
      <LogViewer {...data} />
    </>
  );
});
