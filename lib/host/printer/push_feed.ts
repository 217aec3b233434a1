/**
 * The printer on the push socket: its connection changes and terminal lines reach every page with
 * STATUS as host messages, `{"plugin": {"plugin": "host", "data": {"type": "printer", …}}}`
 * ({@linkcode PrinterPush}). What happens between two messages is gathered into one, so a chatty
 * printer sends at most one message per `everyMs` with at most `maxLines` lines (the older lines
 * of a burst are counted as `skipped`; `GET /api/printer/terminal` has them all).
 *
 * @module
 */
import type { Clock } from "../../clock.ts";
import type { PrinterAccess, TerminalLine } from "../../printer/printer.ts";
import type { ConnectionCurrent, PrinterPush } from "../../shared/printer_connection.ts";
import { HOST_PUSH_ID } from "../../shared/push.ts";
import type { PushHub } from "../push/mod.ts";
import { connectionCurrent } from "./connection_api.ts";

/** Options of {@linkcode feedPrinterPush}. */
export interface PrinterFeedOptions {
  clock: Clock;
  /** Least time between two messages. @default 250 */
  everyMs?: number;
  /** Most terminal lines in one message. @default 100 */
  maxLines?: number;
}

/**
 * Sends the printer's connection changes and terminal lines to the push socket's clients until
 * the returned function is called.
 */
export function feedPrinterPush(
  printer: PrinterAccess,
  push: PushHub,
  options: PrinterFeedOptions,
): () => void {
  const { clock, everyMs = 250, maxLines = 100 } = options;
  let connection: ConnectionCurrent | null = null;
  let lines: TerminalLine[] = [];
  let skipped = 0;
  let last = -Infinity;
  let pending: (() => void) | null = null;
  const flush = () => {
    pending = null;
    last = clock.now();
    const data: PrinterPush = { type: "printer" };
    if (connection) data.connection = connection;
    if (lines.length > 0) data.lines = lines;
    if (skipped > 0) data.skipped = skipped;
    connection = null;
    lines = [];
    skipped = 0;
    push.send(HOST_PUSH_ID, { ...data }, "STATUS");
  };
  const unsubscribe = printer.subscribe((event) => {
    if (event.type === "connection") connection = connectionCurrent(event.status);
    else if (event.type === "terminal") {
      lines.push(event.line);
      if (lines.length > maxLines) {
        lines.shift();
        skipped++;
      }
    } else return;
    pending ??= clock.setTimeout(flush, Math.max(0, last + everyMs - clock.now()));
  });
  return () => {
    unsubscribe();
    pending?.();
    pending = null;
  };
}
