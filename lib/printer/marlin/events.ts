/**
 * What a `MarlinSession` tells its listeners, and which event a printer's line is.
 *
 * @module
 */
import type { FirmwareInfo, MarlinLine } from "./responses.ts";
import type { Temperatures } from "./temperatures.ts";

/**
 * Where a session stands. A new session is `connecting` (the handshake; again after a board
 * restart); `error`: the printer did not answer while a command waited (after the handshake, the
 * next line it sends makes the session operational again); `halted`: the firmware stopped (a
 * board restart, its `start`, shakes hands again); `closed`: the line closed, for good.
 */
export type SessionState = "connecting" | "operational" | "error" | "halted" | "closed";

/** What a session tells its listeners. */
export type MarlinEvent =
  | { type: "state"; state: SessionState; previous: SessionState; message: string | null }
  /** Every report: `ok T:…`, auto-reports, blocking heat-ups. `time`: the clock's ms. */
  | { type: "temperatures"; temperatures: Temperatures; time: number }
  /** `M115`'s answer, at each handshake. */
  | { type: "firmware"; firmware: FirmwareInfo }
  /** An `echo:` line (an unknown command too: `Unknown command: "M999x"`). */
  | { type: "echo"; text: string }
  /** An `Error:` line that neither halts nor asks for a resend. */
  | { type: "printerError"; message: string }
  /** A line no rule knows. */
  | { type: "unknown"; text: string }
  /** SD printing status (`M27`). */
  | { type: "sd"; printing: boolean; byte: number | null; total: number | null }
  /** Every line sent or received, for a terminal view. */
  | { type: "line"; direction: "sent" | "received"; text: string }
  /** Something wrong the session worked around (an overlong line, a resend it could not serve). */
  | { type: "warning"; message: string };

/**
 * The event a line of the printer is worth on its own (null: none, or the session handles it:
 * `ok`, resends, `start`, halts, `busy`). `time` stamps temperatures.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eventOf } from "./events.ts";
 * import { parseLine } from "./responses.ts";
 * assert.deepEqual(eventOf(parseLine("echo:SD card ok"), "echo:SD card ok", 0), {
 *   type: "echo",
 *   text: "SD card ok",
 * });
 * ```
 */
export function eventOf(line: MarlinLine, text: string, time: number): MarlinEvent | null {
  switch (line.kind) {
    case "temperatures":
      return { type: "temperatures", temperatures: line.temperatures, time };
    case "echo":
      return { type: "echo", text: line.text };
    case "unknownCommand":
      return { type: "echo", text: `Unknown command: "${line.command}"` };
    case "error":
      return { type: "printerError", message: line.message };
    case "sd":
      return { type: "sd", printing: line.printing, byte: line.byte, total: line.total };
    case "unknown":
      return { type: "unknown", text };
    default:
      return null;
  }
}
