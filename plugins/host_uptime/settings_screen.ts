/**
 * The uptime plugin's settings screen: its sections and fields (browser-safe data). The widget
 * in the top bar follows a saved change at its next poll.
 *
 * @module
 */
import type { Section } from "../../lib/shared/settings/mod.ts";

/** The sections of the screen. */
export const UPTIME_SECTIONS: readonly Section[] = [
  {
    title: "Top-bar widget",
    intro: "The uptime shown in the top bar of every page once signed in.",
    fields: [
      { key: "show_system_uptime", label: "Show the system's uptime", kind: "toggle" },
      { key: "show_host_uptime", label: "Show the plugin host's uptime", kind: "toggle" },
      {
        key: "display_format",
        label: "Format",
        kind: "select",
        options: [
          { value: "full", label: "Full (1d 2h 3m 4s)" },
          { value: "dhm", label: "Days, hours, minutes (1d 2h 3m)" },
          { value: "dh", label: "Days and hours (1d 2h)" },
          { value: "d", label: "Days (1d)" },
          { value: "short", label: "Short (1d2h3m)" },
        ],
      },
      {
        key: "compact_display",
        label: "Compact: show one uptime at a time",
        kind: "toggle",
        hint: "Only when both are shown; they alternate.",
      },
      {
        key: "compact_toggle_interval_seconds",
        label: "Alternate every",
        kind: "number",
        unit: "s",
        hint: "From 5 to 60 s.",
      },
      {
        key: "poll_interval_seconds",
        label: "Refresh every",
        kind: "number",
        unit: "s",
        hint: "From 1 to 120 s.",
      },
    ],
  },
  {
    title: "Debugging",
    folded: true,
    fields: [
      { key: "debug", label: "Log each uptime request", kind: "toggle" },
      {
        key: "debug_throttle_seconds",
        label: "At most one debug line every",
        kind: "number",
        unit: "s",
      },
    ],
  },
];
