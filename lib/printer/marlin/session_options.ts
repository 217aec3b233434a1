/**
 * The options of a Marlin session, with their defaults: the window of lines in flight, the queue
 * and resend history, the longest line read, the waits for `start`, the handshake and an answer,
 * and the temperature report interval.
 *
 * @module
 */
import { type Clock, systemClock } from "../../clock.ts";

/** Options of a `MarlinSession`. */
export interface MarlinSessionOptions {
  /** Timers and time stamps. @default systemClock */
  clock?: Clock;
  /** Lines sent without their `ok` at most. @default 1 */
  maxInFlight?: number;
  /** Commands waiting at most; one more is a `QueueFullError`. @default 100 */
  queueSize?: number;
  /** Sent lines kept for resends. @default 100 */
  historySize?: number;
  /** Longest line read from the printer, in bytes. @default 4096 */
  maxLineBytes?: number;
  /** How long to wait for `start` before the handshake. @default 3000 */
  startTimeoutMs?: number;
  /** Silence that fails the handshake. @default 10000 */
  connectTimeoutMs?: number;
  /**
   * Silence that fails the commands in flight: no line the host can read (`busy` and
   * temperatures count, `wait` does not). @default 30000
   */
  answerTimeoutMs?: number;
  /** Seconds between temperature reports (`M155 S<n>` or `M105` polls). @default 2 */
  temperatureIntervalSeconds?: number;
}

/** The session's timing, every default filled in. */
export interface SessionTiming {
  clock: Clock;
  startTimeoutMs: number;
  connectTimeoutMs: number;
  answerTimeoutMs: number;
  reportSeconds: number;
}

/**
 * The timing of a session with `options`; a report interval that is not a whole number of
 * seconds ≥ 1 (what `M155 S<n>` takes) is a `RangeError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionTiming } from "./session_options.ts";
 * assert.equal(sessionTiming({}).answerTimeoutMs, 30_000);
 * assert.throws(() => sessionTiming({ temperatureIntervalSeconds: 0.5 }), RangeError);
 * ```
 */
export function sessionTiming(options: MarlinSessionOptions): SessionTiming {
  const reportSeconds = options.temperatureIntervalSeconds ?? 2;
  if (!Number.isSafeInteger(reportSeconds) || reportSeconds < 1) {
    throw new RangeError("Cannot connect: 'temperatureIntervalSeconds' must be a whole number ≥ 1");
  }
  return {
    clock: options.clock ?? systemClock,
    startTimeoutMs: options.startTimeoutMs ?? 3000,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    answerTimeoutMs: options.answerTimeoutMs ?? 30_000,
    reportSeconds,
  };
}
