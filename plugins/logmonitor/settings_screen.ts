/**
 * The log monitor's settings screen: its sections and fields (browser-safe data). The file
 * choices come from the log folder when the page is drawn.
 *
 * @module
 */
import type { Choice, Section } from "../../lib/shared/settings/mod.ts";
import { API_BASE } from "./browser_api.ts";
import { LEVELS } from "./parse.ts";

const levels: Choice[] = LEVELS.filter((l) => l !== "UNKNOWN").map((l) => ({ value: l, label: l }));

/** The sections of the screen, with `files` (the log folder's, and the stored ones) to pick from. */
export function logMonitorSections(files: string[]): Section[] {
  const names: Choice[] = files.map((f) => ({ value: f, label: f }));
  return [
    {
      title: "Viewer",
      fields: [
        {
          key: "default_log_file",
          label: "Default log file",
          kind: "select",
          options: names,
          hint: "Opened first, and used by a search or live tail that names no file.",
        },
        {
          key: "search_page_size",
          label: "Search results per page",
          kind: "number",
          hint: "From 10 to 500.",
        },
        {
          key: "regex_search_enabled",
          label: "Allow regular expressions in searches",
          kind: "toggle",
          hint: "Patterns run in a worker with a time budget.",
        },
        {
          key: "max_stream_lines",
          label: "Lines kept in the live tail",
          kind: "number",
          hint: "Older lines leave the view. From 100 to 10000.",
        },
        {
          key: "stream_poll_interval_s",
          label: "Live tail poll interval",
          kind: "number",
          unit: "s",
          hint: "Only used when the log folder cannot be watched. From 1 to 60 s.",
        },
        {
          key: "auto_start_streaming",
          label: "Start the live tail of the default file when the host starts",
          kind: "toggle",
        },
        {
          key: "mask_log_content",
          label: "Mask secrets in streamed lines",
          kind: "toggle",
          hint: "API keys, passwords, tokens and e-mail addresses are replaced by ****.",
        },
      ],
    },
    {
      title: "Alerts",
      intro: "Lines of these levels in the watched files count as alerts (the badge on the page).",
      fields: [
        { key: "alerts_enabled", label: "Count alerts", kind: "toggle" },
        {
          key: "severity_triggers",
          label: "Levels that raise an alert",
          kind: "checklist",
          options: levels,
        },
        {
          key: "alerts_monitor_mode",
          label: "Files watched for alerts",
          kind: "radio",
          options: [
            { value: "selected", label: "The files chosen below" },
            { value: "all", label: "Every .log file of the folder" },
          ],
        },
        {
          key: "alerts_monitored_logs",
          label: "Chosen files",
          kind: "checklist",
          options: names,
        },
        { key: "alert_history_enabled", label: "Keep an alert history", kind: "toggle" },
        {
          key: "max_alert_history",
          label: "Alerts kept in the history",
          kind: "number",
          hint: "From 10 to 500.",
        },
      ],
    },
    {
      title: "Debugging",
      folded: true,
      fields: [
        {
          key: "debug_mode",
          label: "Enable the debug endpoints",
          kind: "toggle",
          hint: `POST ${API_BASE}/debug/frontend and /debug/test-entries.`,
        },
      ],
    },
  ];
}
