/**
 * The Temperature ETA settings screen: its sections and fields (browser-safe data). The ranges
 * in the hints come from the server (`rangeHints()` of `schema.ts`, the schema the host
 * validates with), so this file loads no schema code.
 *
 * @module
 */
import type { Field, Section } from "../../lib/shared/settings/mod.ts";
import { TIME_FORMATS } from "./choices.ts";

const TIME_FORMAT_LABELS: Record<(typeof TIME_FORMATS)[number], string> = {
  auto: "Automatic (by size)",
  seconds: "Seconds (95s)",
  minutes: "Minutes (1.6m)",
  hours: "Hours (0.1h)",
  hms: "HH:MM:SS",
};

/** The sections of the screen, with the sound files to choose from and each number's range. */
export function tempEtaSections(
  sounds: readonly string[],
  ranges: Readonly<Record<string, string>>,
): Section[] {
  const num = (key: string, label: string, unit: string, hint = ""): Field => ({
    key,
    label,
    kind: "number",
    unit,
    hint: `${hint} ${ranges[key] ?? ""}`.trim(),
  });
  const soundChoices = sounds.map((s) => ({ value: s, label: s === "default" ? "Default" : s }));
  return [
    {
      title: "Estimation",
      fields: [
        { key: "enabled", label: "Estimate ETAs", kind: "toggle" },
        {
          key: "algorithm",
          label: "Algorithm",
          kind: "radio",
          options: [
            { value: "linear", label: "Linear: fast, suits constant heating" },
            { value: "exponential", label: "Exponential: more accurate near the target" },
          ],
        },
        {
          key: "time_format",
          label: "ETA format",
          kind: "select",
          options: TIME_FORMATS.map((f) => ({ value: f, label: TIME_FORMAT_LABELS[f] })),
        },
        num("update_interval", "Update every", "s"),
        num("min_rate", "Minimum rate", "°C/s", "Slower than this, the ETA shows 'stalled'."),
        num("max_eta", "Longest ETA", "s", "Longer than this, the ETA shows 'calculating'."),
      ],
    },
    {
      title: "Heating",
      fields: [
        { key: "heating_enabled", label: "Estimate heating", kind: "toggle" },
        num(
          "heating_threshold",
          "Threshold",
          "°C",
          "The ETA shows once the heater is this far from its target.",
        ),
        { key: "heating_notification_enabled", label: "Notify when reached", kind: "toggle" },
        { key: "heating_sound_enabled", label: "Play a sound when reached", kind: "toggle" },
        { key: "heating_sound_file", label: "Sound", kind: "select", options: soundChoices },
      ],
    },
    {
      title: "Cooling",
      fields: [
        { key: "cooling_enabled", label: "Estimate cooling", kind: "toggle" },
        num(
          "cooling_threshold",
          "Threshold",
          "°C",
          "The heater counts as cooled down this close to its cooling target.",
        ),
        num("cooling_target_tool", "Cooling target of the tools", "°C"),
        num("cooling_target_bed", "Cooling target of the bed", "°C"),
        num("cooling_target_chamber", "Cooling target of the chamber", "°C"),
        { key: "cooling_notification_enabled", label: "Notify when cooled down", kind: "toggle" },
        { key: "cooling_sound_enabled", label: "Play a sound when cooled down", kind: "toggle" },
        { key: "cooling_sound_file", label: "Sound", kind: "select", options: soundChoices },
      ],
    },
    {
      title: "Display",
      fields: [
        { key: "show_in_navbar", label: "Show the ETAs in the top bar", kind: "toggle" },
        { key: "show_in_sidebar", label: "Show the heater list", kind: "toggle" },
        { key: "show_in_graph", label: "Show the graph", kind: "toggle" },
        { key: "show_rate", label: "Show the rate (°C/s)", kind: "toggle" },
        { key: "show_percentage", label: "Show the progress in percent", kind: "toggle" },
      ],
    },
    {
      title: "MQTT",
      intro:
        "Publishes each heater's ETA to {prefix}/tool0, {prefix}/bed and so on. A new broker takes effect when saved (the host may restart briefly to be allowed to reach it).",
      fields: [
        { key: "mqtt_enabled", label: "Publish over MQTT", kind: "toggle" },
        { key: "mqtt_broker", label: "Broker host", kind: "text", placeholder: "localhost" },
        num("mqtt_port", "Port", ""),
        { key: "mqtt_tls_enabled", label: "Use TLS", kind: "toggle" },
        {
          key: "mqtt_tls_insecure",
          label: "Accept any certificate",
          kind: "toggle",
          hint: "Only with TLS; for testing.",
        },
        {
          key: "mqtt_ca_cert",
          label: "CA certificate",
          kind: "textarea",
          placeholder: "/etc/ssl/certs/my-ca.pem, or the PEM text",
          hint: "An absolute file path or the PEM text; empty: the system's CAs.",
        },
        { key: "mqtt_username", label: "User name", kind: "text" },
        {
          key: "mqtt_password",
          label: "Password",
          kind: "secret",
          hint: "Kept apart from the other settings and never shown; needs a user name.",
        },
        { key: "mqtt_topic_prefix", label: "Topic prefix", kind: "text" },
        {
          key: "mqtt_qos",
          label: "Quality of service",
          kind: "select",
          options: [
            { value: 0, label: "0: at most once" },
            { value: 1, label: "1: at least once" },
            { value: 2, label: "2: exactly once" },
          ],
        },
        { key: "mqtt_retain", label: "Retain messages on the broker", kind: "toggle" },
        num("mqtt_keepalive", "Keep-alive", "s"),
      ],
    },
    {
      title: "Advanced",
      folded: true,
      fields: [
        num("history_max_age", "History kept", "s"),
        num("history_max_samples", "Samples kept per heater", ""),
        num("linear_window", "Linear window", "s", "Used by the linear algorithm only."),
        num("exponential_window", "Exponential window", "s", "Used by the exponential one only."),
        num("exponential_max_tau", "Longest time constant", "s"),
        num("calculation_interval", "Calculate every", "s", "Not longer than the update interval."),
        num("cleanup_interval", "Clean the history every", "s"),
        { key: "debug_logging", label: "Debug logging", kind: "toggle" },
      ],
    },
  ];
}
