/**
 * A printer state as print hosts show it: the words (`Printing`, OctoPrint's "Offline after
 * error" and "Error: …" of a connection) and the flags of `GET /api/printer`.
 *
 * @module
 */
import type { ConnectionStatus, PrinterState } from "../../printer/printer.ts";

/** The words of each state (`GET /api/job`'s `state`). */
export const STATE_TEXT: Readonly<Record<PrinterState, string>> = {
  OFFLINE: "Offline",
  CONNECTING: "Connecting",
  OPERATIONAL: "Operational",
  PRINTING: "Printing",
  PAUSING: "Pausing",
  PAUSED: "Paused",
  RESUMING: "Resuming",
  CANCELLING: "Cancelling",
  FINISHING: "Finishing",
  ERROR: "Error",
};

/**
 * The words of a connection, as OctoPrint shows them: its state's, "Offline after error" while
 * the reason of a failure stays, "Error: <reason>".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stateText } from "./state_text.ts";
 * assert.equal(stateText({ state: "OFFLINE", error: "no such port" }), "Offline after error");
 * assert.equal(stateText({ state: "ERROR", error: "halted" }), "Error: halted");
 * assert.equal(stateText({ state: "PRINTING", error: null }), "Printing");
 * ```
 */
export function stateText(status: Pick<ConnectionStatus, "state" | "error">): string {
  if (status.state === "OFFLINE") return status.error ? "Offline after error" : "Offline";
  if (status.state === "ERROR") return `Error: ${status.error ?? "unknown"}`;
  return STATE_TEXT[status.state];
}

/**
 * A connection's state as `GET /api/printer` shows it: its words, its id, the reason of a failure
 * and OctoPrint's flags.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stateOf } from "./state_text.ts";
 * const paused = stateOf({ state: "PAUSED", error: null });
 * assert.deepEqual([paused.text, paused.flags.paused, paused.flags.busy], ["Paused", true, true]);
 * ```
 */
export function stateOf(status: Pick<ConnectionStatus, "state" | "error">) {
  const state = status.state;
  return {
    text: stateText(status),
    id: state,
    error: status.error,
    flags: {
      operational: state !== "OFFLINE" && state !== "ERROR" && state !== "CONNECTING",
      printing: state === "PRINTING",
      paused: state === "PAUSED",
      pausing: state === "PAUSING",
      cancelling: state === "CANCELLING",
      finishing: state === "FINISHING",
      ready: state === "OPERATIONAL",
      error: state === "ERROR",
      closedOrError: state === "ERROR" || state === "OFFLINE",
      busy: ["PRINTING", "PAUSING", "PAUSED", "RESUMING", "CANCELLING", "FINISHING"].includes(
        state,
      ),
    },
  };
}
