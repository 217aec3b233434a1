/**
 * Why a command to a Marlin printer failed, one class per case a caller must tell apart. Each
 * extends the class of `lib/error.ts` that gives it its meaning at the edges (status, exit code).
 *
 * @module
 */
import {
  type AppErrorOptions,
  ConflictError,
  UnavailableError,
  UnreachableError,
  UpstreamTimeoutError,
} from "../../error.ts";

/** The firmware halted (`!!`, `kill() called`): nothing is sent until the board restarts. */
export class PrinterHaltedError extends ConflictError {
  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, { code: "printer_halted", ...options });
  }
}

/** The line to the printer closed (unplugged, closed by the host) or the board restarted. */
export class PrinterDisconnectedError extends UnreachableError {
  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, { code: "printer_disconnected", ...options });
  }
}

/** The printer sent nothing at all for longer than allowed while a command waited. */
export class PrinterTimeoutError extends UpstreamTimeoutError {
  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, { code: "printer_timeout", ...options });
  }
}

/** The queue of commands waiting to be sent is full. */
export class QueueFullError extends UnavailableError {
  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, { code: "queue_full", ...options });
  }
}

/**
 * What a silence of `ms` says: noise only (a wrong baud rate), a command left unanswered, or no
 * answer to the handshake at all.
 */
export function silenceMessage(ms: number, unreadable: boolean, handshaken: boolean): string {
  return `The printer did not answer for ${ms / 1000} s` +
    (unreadable
      ? ": it sent only what the host cannot read (is the baud rate right?)"
      : handshaken
      ? " while a command waited"
      : ": is it switched on, and is the baud rate right?");
}
