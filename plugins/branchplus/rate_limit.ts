/**
 * Per-channel rate limit of the rules engine: a channel the engine switched less than the minimum
 * interval ago is not switched again yet. The switch is deferred, never dropped: one coalesced
 * retry timer re-runs the whole engine when the earliest waiting channel becomes free (plus a
 * small margin), so the channel ends up in whatever state the rules want by then.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";

/** Margin added to a deferral so the retry lands after the interval has passed. */
export const RETRY_MARGIN_MS = 100;

/** Options of {@linkcode createSwitchLimiter}. */
export interface SwitchLimiterOptions {
  clock: Clock;
  /** Minimum interval between two switches of one channel, read on every check. */
  intervalMs: () => number;
}

/** The rate limiter of the engine. */
export interface SwitchLimiter {
  /** Milliseconds until `key` may be switched again; 0 when it may be switched now. */
  remaining(key: string): number;
  /** Records that `key` was switched now. */
  record(key: string): void;
  /** Runs `retry` after `ms` (+ margin), keeping only the earliest pending retry. */
  defer(ms: number, retry: () => void): void;
  /** Whether a retry is pending. */
  readonly pending: boolean;
  /** Cancels the pending retry and forgets every switch time. */
  reset(): void;
}

/**
 * Creates the per-channel rate limiter.
 *
 * @example Deferring a second switch
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSwitchLimiter } from "./rate_limit.ts";
 * import { systemClock } from "../../lib/clock.ts";
 * const limiter = createSwitchLimiter({ clock: systemClock, intervalMs: () => 3000 });
 * limiter.record("usb:1");
 * assert.ok(limiter.remaining("usb:1") > 0);
 * assert.equal(limiter.remaining("usb:2"), 0);
 * ```
 */
export function createSwitchLimiter(options: SwitchLimiterOptions): SwitchLimiter {
  const { clock } = options;
  const lastSwitch = new Map<string, number>();
  let timer: { due: number; cancel: () => void } | undefined;
  return {
    remaining(key) {
      const last = lastSwitch.get(key);
      if (last === undefined) return 0;
      return Math.max(0, last + options.intervalMs() - clock.now());
    },
    record(key) {
      lastSwitch.set(key, clock.now());
    },
    defer(ms, retry) {
      const due = clock.now() + ms + RETRY_MARGIN_MS;
      if (timer && timer.due <= due) return;
      timer?.cancel();
      const cancel = clock.setTimeout(() => {
        timer = undefined;
        retry();
      }, ms + RETRY_MARGIN_MS);
      timer = { due, cancel };
    },
    get pending() {
      return timer !== undefined;
    },
    reset() {
      timer?.cancel();
      timer = undefined;
      lastSwitch.clear();
    },
  };
}
