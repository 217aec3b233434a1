/**
 * The printer connection as the host's API and push socket carry it, and the pure helpers of the
 * connection page: `GET /api/connection`'s body, the printer messages of the push socket (on the
 * host's channel, {@linkcode HOST_PUSH_ID}), the terminal's lines kept in a bounded list, and
 * where a state stands (browser code: no Deno APIs).
 *
 * @module
 */
import type { ConnectionStatus, PrinterState, TerminalLine } from "../printer/printer.ts";

export type { PrinterState, TerminalLine };

/** The connection as `GET /api/connection`'s `current` shows it. */
export interface ConnectionCurrent {
  /** OctoPrint's text: `Operational`, `Offline after error`, `Error: …`. */
  state: string;
  /** The state's id (what a page branches on). */
  stateId: PrinterState;
  port: string | null;
  baudrate: number | null;
  printerProfile: string;
  /** Why the last connection failed or ended, saying how to fix it; null when nothing failed. */
  error: string | null;
  firmware: ConnectionStatus["firmware"];
}

/** The choices and stored preferences, as `GET /api/connection`'s `options` shows them. */
export interface ConnectionChoices {
  ports: string[];
  baudrates: readonly number[];
  printerProfiles: { id: string; name: string }[];
  portPreference: string | null;
  baudratePreference: number | null;
  printerProfilePreference: string;
  autoconnect: boolean;
}

/** The body of `GET /api/connection`. */
export interface ConnectionInfo {
  current: ConnectionCurrent;
  options: ConnectionChoices;
}

/**
 * A printer message of the push socket (`{"plugin": {"plugin": "host", "data": …}}`): the
 * connection when it changed, the terminal lines since the last message and how many lines were
 * left out to keep the rate bounded.
 */
export interface PrinterPush {
  type: "printer";
  connection?: ConnectionCurrent;
  lines?: TerminalLine[];
  skipped?: number;
}

/** Terminal lines a page keeps (the host keeps as many). */
export const TERMINAL_MAX_LINES = 300;

/**
 * `lines` with `more` appended (and a host line saying how many were `skipped` before them), the
 * newest `max` kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appendLines } from "./printer_connection.ts";
 * const line = (text: string) => ({ time: 0, direction: "received" as const, text });
 * const out = appendLines([line("a")], [line("b"), line("c")], 0, 2);
 * assert.deepEqual(out.map((l) => l.text), ["b", "c"]);
 * ```
 */
export function appendLines(
  lines: readonly TerminalLine[],
  more: readonly TerminalLine[],
  skipped = 0,
  max = TERMINAL_MAX_LINES,
): TerminalLine[] {
  const gap: TerminalLine[] = skipped > 0
    ? [{
      time: more[0]?.time ?? Date.now(),
      direction: "info",
      text: `… ${skipped} line${skipped === 1 ? "" : "s"} not shown (too many at once)`,
    }]
    : [];
  return [...lines, ...gap, ...more].slice(-max);
}

/** Where a connection stands for its buttons: no line, a line opening, a line open. */
export type ConnectionPhase = "offline" | "connecting" | "connected";

/**
 * The phase of a state: `OFFLINE` is offline, `CONNECTING` connecting, any other (operational,
 * printing, halted in `ERROR`) has the line open.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { phaseOf } from "./printer_connection.ts";
 * assert.equal(phaseOf("ERROR"), "connected");
 * ```
 */
export function phaseOf(state: PrinterState): ConnectionPhase {
  if (state === "OFFLINE") return "offline";
  return state === "CONNECTING" ? "connecting" : "connected";
}

/** The prefix of a terminal line, as print hosts show it: `Send:`, `Recv:`, none for the host. */
export function linePrefix(direction: TerminalLine["direction"]): string {
  return direction === "sent" ? "Send:" : direction === "received" ? "Recv:" : "";
}
