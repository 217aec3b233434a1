/**
 * The branch controller's settings screen: its sections and fields (browser-safe data). The
 * channels' own settings (label, mode, rules, failsafe) are edited on the power page.
 *
 * @module
 */
import type { Section } from "../../lib/shared/settings/mod.ts";

/** The sections of the screen. */
export const BRANCH_SECTIONS: readonly Section[] = [
  {
    title: "Hub",
    intro:
      "Where the power hub's WebSocket listens. A new address takes effect when saved (the host may restart briefly to be allowed to reach it).",
    fields: [
      {
        key: "host",
        label: "Host name or address",
        kind: "text",
        placeholder: "e.g. 192.168.1.50 (empty: no hub)",
      },
      { key: "port", label: "Port", kind: "number", hint: "From 1 to 65535." },
      { key: "path", label: "WebSocket path", kind: "text", placeholder: "/ws" },
      {
        key: "failsafe_grace",
        label: "Failsafe grace",
        kind: "number",
        unit: "s",
        hint:
          "How long the hub may be lost before its outputs take their failsafe state when it is back (a shorter loss is only re-synced).",
      },
      {
        key: "host_down_grace",
        label: "Failsafe when the host is down",
        kind: "number",
        unit: "s",
        hint:
          "How long the host may be down after a crash before its launcher switches the outputs to their failsafe states.",
      },
      {
        key: "reconnect_min",
        label: "First reconnect delay",
        kind: "number",
        unit: "s",
        hint: "Doubled after each failed attempt.",
      },
      { key: "reconnect_max", label: "Longest reconnect delay", kind: "number", unit: "s" },
    ],
  },
  {
    title: "Automation",
    fields: [
      {
        key: "automation_enabled",
        label: "Apply the channels' rules",
        kind: "toggle",
        hint: "Off: nothing is switched automatically, manual states are not enforced either.",
      },
      {
        key: "combine_logic",
        label: "Rule matrix and temperature rule",
        kind: "select",
        options: [
          { value: "temp_override", label: "The temperature rule wins" },
          { value: "and", label: "On only when both say on" },
          { value: "or", label: "On when either says on" },
        ],
      },
      {
        key: "temp_hysteresis",
        label: "Temperature hysteresis",
        kind: "number",
        unit: "°C",
        hint: "An active temperature rule releases this far below its threshold.",
      },
      {
        key: "min_switch_interval",
        label: "Minimum time between two switches",
        kind: "number",
        unit: "s",
        hint: "Per channel, and after a user's command.",
      },
      {
        key: "startup_behaviour",
        label: "When the hub first connects",
        kind: "select",
        options: [
          { value: "leave", label: "Leave the outputs as they are" },
          { value: "all_off", label: "Switch every output off" },
          { value: "restore", label: "Restore the manual channels' remembered states" },
        ],
      },
      {
        key: "confirm_high_power",
        label: "Ask before switching a 24 V output on",
        kind: "toggle",
      },
    ],
  },
];
