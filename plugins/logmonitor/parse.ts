/**
 * Parsing of log lines into `{timestamp, logger, level, message, raw}`. Patterns, tried in
 * order: standard (`YYYY-MM-DD HH:MM:SS[,mmm] - logger - LEVEL - message`), compact
 * (`<ts> LEVEL logger message`), serial I/O (`<ts> >>> msg` / `<ts> <<< msg`) and simple
 * (`<ts> - message`, level inferred from keywords); anything else is level UNKNOWN.
 *
 * @module
 */

/** Severity levels, lowest first; UNKNOWN is for lines no pattern recognises. */
export const LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL", "UNKNOWN"] as const;

/** One of {@linkcode LEVELS}. */
export type Level = typeof LEVELS[number];

/** A parsed line. */
export interface ParsedLine {
  timestamp: string;
  logger: string;
  level: Level;
  message: string;
  raw: string;
  /** The file a multi-stream or alert line came from. */
  _source_file?: string;
}

const TS = String.raw`(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:,\d{3})?)`;
const LV = "(DEBUG|INFO|WARNING|ERROR|CRITICAL|UNKNOWN)";
const STANDARD = new RegExp(String.raw`^${TS}\s+-\s+([^-]+?)\s+-\s+${LV}\s+-\s+(.+)$`);
const COMPACT = new RegExp(String.raw`^${TS}\s*${LV}\s+([A-Za-z0-9_.:-]+)\s+(.+)$`);
const SERIAL_IO = new RegExp(String.raw`^${TS}\s+(>>>|<<<)\s+(.*)$`);
const SIMPLE = new RegExp(String.raw`^${TS}\s+-\s+(.+)$`);

const KEYWORDS = (["CRITICAL", "ERROR", "WARNING", "DEBUG"] as const).map((l) =>
  [l, new RegExp(l, "i")] as const
);

/**
 * Infers a level from keywords in a message (CRITICAL, ERROR, WARNING, DEBUG, else INFO), in
 * any ASCII case (so a byte search for the word finds every such line).
 */
export function inferLevel(message: string): Level {
  for (const [level, re] of KEYWORDS) if (re.test(message)) return level;
  return "INFO";
}

/**
 * Parses one line (trailing CR/LF removed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLine } from "./parse.ts";
 * const p = parseLine("2024-01-01 12:00:00,123 - octoprint.server - INFO - Starting");
 * assert.ok(p.logger === "octoprint.server" && p.level === "INFO" && p.message === "Starting");
 * ```
 */
export function parseLine(line: string): ParsedLine {
  const raw = line.replace(/[\r\n]+$/, "");
  let m = STANDARD.exec(raw);
  if (m) {
    return { timestamp: m[1]!, logger: m[2]!.trim(), level: m[3] as Level, message: m[4]!, raw };
  }
  m = COMPACT.exec(raw);
  if (m) return { timestamp: m[1]!, logger: m[3]!, level: m[2] as Level, message: m[4]!, raw };
  m = SERIAL_IO.exec(raw);
  if (m) {
    return {
      timestamp: m[1]!,
      logger: "serial.log",
      level: "INFO",
      message: `${m[2]} ${m[3]}`,
      raw,
    };
  }
  m = SIMPLE.exec(raw);
  if (m) {
    const message = m[2]!.trim();
    return { timestamp: m[1]!, logger: "serial.log", level: inferLevel(message), message, raw };
  }
  return { timestamp: "", logger: "", level: "UNKNOWN", message: raw, raw };
}
