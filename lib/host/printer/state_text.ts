/**
 * A printer state as print hosts show it: the words (`Printing`) and the flags of
 * `GET /api/printer`.
 *
 * @module
 */
import type { PrinterState } from "../plugin.ts";

/** The words of each state (`GET /api/job`'s `state`). */
export const STATE_TEXT: Readonly<Record<PrinterState, string>> = {
  CONNECTING: "Connecting",
  OPERATIONAL: "Operational",
  PRINTING: "Printing",
  PAUSED: "Paused",
  PAUSING: "Pausing",
  RESUMING: "Resuming",
  CANCELLING: "Cancelling",
  FINISHING: "Finishing",
  ERROR: "Error",
  OFFLINE: "Offline",
};

/**
 * A state as `GET /api/printer` shows it: its words, its id and its flags.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stateOf } from "./state_text.ts";
 * assert.equal(stateOf("PAUSED").text, "Paused");
 * assert.equal(stateOf("PAUSED").flags.paused, true);
 * ```
 */
export function stateOf(state: PrinterState) {
  return {
    text: STATE_TEXT[state],
    id: state,
    flags: {
      operational: state !== "OFFLINE" && state !== "ERROR",
      printing: state === "PRINTING",
      paused: state === "PAUSED",
      pausing: state === "PAUSING",
      cancelling: state === "CANCELLING",
      finishing: state === "FINISHING",
      ready: state === "OPERATIONAL",
      error: state === "ERROR",
      closedOrError: state === "ERROR" || state === "OFFLINE",
    },
  };
}
