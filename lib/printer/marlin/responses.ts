/**
 * What a Marlin printer's line means, for the host: acknowledgements, temperature reports,
 * resend requests, errors and halts, `M115`'s firmware and capability lines, SD progress, and
 * the variants forks and old firmware print. Pure; any line parses (as `unknown` when nothing
 * else fits).
 *
 * @module
 */
import { isTemperatureReport, parseTemperatures, type Temperatures } from "./temperatures.ts";

/** One line from the printer, by meaning. */
export type MarlinLine =
  /** `ok`, `ok N:4`, `ok 51`, `ok duplicate line:4`, `ok T:20.3 /0.0 …`. */
  | { kind: "ok"; line: number | null; duplicate: boolean; temperatures: Temperatures | null }
  /** A temperature report without `ok` (auto-report, blocking heat-up). */
  | { kind: "temperatures"; temperatures: Temperatures }
  /** `echo:busy: processing`: a long command runs, its `ok` comes later. */
  | { kind: "busy"; reason: string }
  | { kind: "echo"; text: string }
  /** `echo:Unknown command: "M999x"`. */
  | { kind: "unknownCommand"; command: string }
  /** A line the printer rejected (checksum, line number); a `Resend:` follows. */
  | { kind: "lineError"; message: string; lastLine: number | null }
  /** Any other `Error:` line. */
  | { kind: "error"; message: string }
  /** `Resend: 12` (or `Resend:12`, `rs 12`): send again from this line. */
  | { kind: "resend"; line: number }
  /** `Error:Printer halted. kill() called!` or `!!`: the firmware stopped. */
  | { kind: "halt"; message: string }
  | { kind: "wait" }
  /** The board (re)started. */
  | { kind: "start" }
  | { kind: "empty" }
  /** A `//` line (`// action:pause` …). */
  | { kind: "comment"; text: string }
  /** `M115`'s `FIRMWARE_NAME:Marlin 2.1.2 … EXTRUDER_COUNT:1`, split into its fields. */
  | { kind: "firmware"; fields: Record<string, string> }
  /** `Cap:AUTOREPORT_TEMP:1`. */
  | { kind: "capability"; name: string; enabled: boolean }
  /** `SD printing byte 1234/56789` or `Not SD printing`. */
  | { kind: "sd"; printing: boolean; byte: number | null; total: number | null }
  | { kind: "unknown"; text: string };

/** What `M115` told of the firmware. */
export interface FirmwareInfo {
  /** `FIRMWARE_NAME`, or null when the firmware did not say. */
  name: string | null;
  /** Every `KEY:value` of the firmware line (`PROTOCOL_VERSION`, `EXTRUDER_COUNT` …). */
  fields: Record<string, string>;
  /** `Cap:` lines: name → enabled. */
  capabilities: Record<string, boolean>;
}

/**
 * The meaning of one line the printer sent (without its line ending).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLine } from "./responses.ts";
 * assert.deepEqual(parseLine("Resend:12"), { kind: "resend", line: 12 });
 * assert.deepEqual(parseLine("!!"), { kind: "halt", message: "!!" });
 * ```
 */
export function parseLine(raw: string): MarlinLine {
  const text = raw.trim();
  let m: RegExpMatchArray | null;
  if (text === "") return { kind: "empty" };
  if (text === "start") return { kind: "start" };
  if (text === "wait") return { kind: "wait" };
  if ((m = text.match(/^ok\b\s*(.*)$/i))) return parseOk(m[1]!);
  if (text.startsWith("!!")) return { kind: "halt", message: text };
  if ((m = text.match(/^(?:Resend|rs)\s*:?\s*(-?\d+)/i))) {
    return { kind: "resend", line: Number(m[1]) };
  }
  if ((m = text.match(/^Error:\s*(.*)$/i))) return parseError(m[1]!);
  if (text.startsWith("//")) return { kind: "comment", text: text.slice(2).trim() };
  if ((m = text.match(/^(?:echo:\s*)?busy:\s*(.*)$/i))) return { kind: "busy", reason: m[1]! };
  if ((m = text.match(/^(?:echo:\s*)?Unknown command:\s*"?(.*?)"?$/i))) {
    return { kind: "unknownCommand", command: m[1]! };
  }
  if ((m = text.match(/^echo:\s*(.*)$/i))) return { kind: "echo", text: m[1]! };
  if (text.startsWith("FIRMWARE_NAME:")) return { kind: "firmware", fields: keyValues(text) };
  if ((m = text.match(/^Cap:([A-Z0-9_]+):([01])$/))) {
    return { kind: "capability", name: m[1]!, enabled: m[2] === "1" };
  }
  if ((m = text.match(/^SD printing byte (\d+)\s*\/\s*(\d+)/))) {
    return { kind: "sd", printing: true, byte: Number(m[1]), total: Number(m[2]) };
  }
  if (text.startsWith("Not SD printing")) {
    return { kind: "sd", printing: false, byte: null, total: null };
  }
  if (isTemperatureReport(text)) {
    return { kind: "temperatures", temperatures: parseTemperatures(text) };
  }
  return { kind: "unknown", text };
}

function parseOk(rest: string): MarlinLine {
  const duplicate = rest.match(/^duplicate line\s*:?\s*(\d+)/i);
  const numbered = duplicate ?? rest.match(/^(?:N\s*:?\s*)?(\d+)\b/);
  return {
    kind: "ok",
    line: numbered ? Number(numbered[1]) : null,
    duplicate: duplicate !== null,
    temperatures: /(?:^|\s)(?:T\d*|B|C):\s*-?\d/.test(rest) ? parseTemperatures(rest) : null,
  };
}

function parseError(message: string): MarlinLine {
  if (/halted|kill\(\) called/i.test(message)) return { kind: "halt", message };
  const last = message.match(/Last Line:\s*(-?\d+)/i);
  if (last || /checksum|line number/i.test(message)) {
    return { kind: "lineError", message, lastLine: last ? Number(last[1]) : null };
  }
  return { kind: "error", message };
}

/** `KEY:value KEY2:value two` → `{KEY: "value", KEY2: "value two"}` (keys in capitals). */
function keyValues(text: string): Record<string, string> {
  const keys = [...text.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*):/g)];
  const out: Record<string, string> = {};
  keys.forEach((key, i) => {
    const end = keys[i + 1]?.index ?? text.length;
    out[key[1]!] = text.slice(key.index! + key[0].length, end).trim();
  });
  return out;
}

/**
 * The firmware described by the lines of `M115`'s answer (other lines are ignored).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firmwareInfo } from "./responses.ts";
 * const info = firmwareInfo([
 *   "FIRMWARE_NAME:Marlin 2.1.2 (Jan 1 2024) PROTOCOL_VERSION:1.0 EXTRUDER_COUNT:1",
 *   "Cap:AUTOREPORT_TEMP:1",
 *   "ok",
 * ]);
 * assert.equal(info.name, "Marlin 2.1.2 (Jan 1 2024)");
 * assert.equal(info.fields.EXTRUDER_COUNT, "1");
 * assert.deepEqual(info.capabilities, { AUTOREPORT_TEMP: true });
 * ```
 */
export function firmwareInfo(lines: readonly string[]): FirmwareInfo {
  const info: FirmwareInfo = { name: null, fields: {}, capabilities: {} };
  for (const line of lines.map(parseLine)) {
    if (line.kind === "firmware") {
      info.fields = line.fields;
      info.name = line.fields.FIRMWARE_NAME ?? null;
    } else if (line.kind === "capability") info.capabilities[line.name] = line.enabled;
  }
  return info;
}
