/**
 * The uptime payload of `GET /api/plugin/<id>`, with the localised note shown when the
 * system uptime cannot be read.
 *
 * @module
 */
import { formatUptime } from "./format.ts";
import type { UptimeSettings } from "./settings.ts";

/** Notes by language (the first language of `Accept-Language` that is known wins). */
export const UNAVAILABLE_NOTES: Readonly<Record<string, string>> = {
  en: "Uptime could not be determined on this system.",
  de: "Die Betriebszeit konnte auf diesem System nicht ermittelt werden.",
  fr: "Le temps de fonctionnement n'a pas pu être déterminé sur ce système.",
};

/** Picks the note's language from an `Accept-Language` header (default English). */
export function noteLanguage(acceptLanguage: string | undefined): string {
  for (const part of (acceptLanguage ?? "").split(",")) {
    const lang = part.split(";")[0]!.trim().toLowerCase().split("-")[0]!;
    if (lang in UNAVAILABLE_NOTES) return lang;
  }
  return "en";
}

/** Inputs of {@linkcode uptimePayload}. */
export interface PayloadInput {
  systemSeconds: number | null;
  hostSeconds: number | null;
  settings: UptimeSettings;
  /** Language of the note. @default "en" */
  lang?: string;
  /** Now, ms since the epoch (for the start times). */
  now: number;
}

function texts(prefix: string, seconds: number | null): Record<string, unknown> {
  const t = seconds === null ? null : formatUptime(seconds);
  const unknown = "unknown";
  return {
    [`${prefix}seconds`]: seconds === null ? null : Math.trunc(seconds),
    [`${prefix}uptime`]: t?.full ?? unknown,
    [`${prefix}uptime_dhm`]: t?.dhm ?? unknown,
    [`${prefix}uptime_dh`]: t?.dh ?? unknown,
    [`${prefix}uptime_d`]: t?.d ?? unknown,
    [`${prefix}uptime_short`]: t?.short ?? unknown,
  };
}

/**
 * Builds the payload: system fields (`seconds`, `uptime`, `uptime_dhm`, ...), host fields
 * (`host_seconds`, `host_uptime`, ...), `display_format`, `poll_interval_seconds`,
 * `uptime_available`, `uptime_note`, start times and the widget's visibility settings.
 */
export function uptimePayload(input: PayloadInput): Record<string, unknown> {
  const { systemSeconds, hostSeconds, settings, now } = input;
  const available = systemSeconds !== null;
  const started = (s: number | null) =>
    s === null ? null : new Date(now - Math.trunc(s) * 1000).toISOString();
  return {
    ...texts("", systemSeconds),
    ...texts("host_", hostSeconds),
    system_started: started(systemSeconds),
    host_started: started(hostSeconds),
    display_format: settings.display_format,
    poll_interval_seconds: Math.min(120, Math.max(1, Math.trunc(settings.poll_interval_seconds))),
    uptime_available: available,
    uptime_note: available ? null : UNAVAILABLE_NOTES[input.lang ?? "en"] ?? UNAVAILABLE_NOTES.en,
    show_system_uptime: settings.show_system_uptime,
    show_host_uptime: settings.show_host_uptime,
    compact_display: settings.compact_display,
    compact_toggle_interval_seconds: settings.compact_toggle_interval_seconds,
  };
}
