/**
 * The per-account limit of manual switch commands (`set_channel`): at most
 * {@linkcode SWITCH_LIMIT} in any {@linkcode SWITCH_WINDOW_MS} window per account, counted over
 * every session and API key of the account together (opening more sessions does not raise it). A
 * command over the limit is refused before it reaches the hub with a `RateLimitedError` (HTTP 429
 * with `Retry-After`, answered as `{ok: false, reason: "rate_limited", detail}`). The rules
 * engine's own switches are not counted here: they are limited per channel
 * (`min_switch_interval`, `./rate_limit.ts`).
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";
import { RateLimitedError } from "../../lib/error.ts";
import { SlidingWindowLimiter } from "../../lib/http/mod.ts";

/** Switch commands one account may send per window. */
export const SWITCH_LIMIT = 10;

/** The window of {@linkcode SWITCH_LIMIT}, in ms. */
export const SWITCH_WINDOW_MS = 10_000;

/** Admits or refuses the switch commands of each account. */
export interface SwitchCommandLimit {
  /**
   * Counts one switch command of `account`.
   *
   * @throws {RateLimitedError} (`rate_limited`, with `retryAfterSeconds`) over the limit; the
   * refused command is not counted.
   */
  admit(account: string): void;
}

/**
 * Creates the limit on the given clock.
 *
 * @example Eleven switches in a row
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSwitchCommandLimit, SWITCH_LIMIT } from "./api_limit.ts";
 * import { RateLimitedError } from "../../lib/error.ts";
 * let now = 0;
 * const limit = createSwitchCommandLimit({ now: () => now });
 * for (let i = 0; i < SWITCH_LIMIT; i++) limit.admit("alice");
 * assert.throws(() => limit.admit("alice"), RateLimitedError);
 * limit.admit("bob");
 * now = 10_000;
 * limit.admit("alice");
 * ```
 */
export function createSwitchCommandLimit(clock: Pick<Clock, "now">): SwitchCommandLimit {
  const limiter = new SlidingWindowLimiter({
    max: SWITCH_LIMIT,
    windowMs: SWITCH_WINDOW_MS,
    now: () => clock.now(),
  });
  return {
    admit(account) {
      if (limiter.attempt(account)) return;
      const waitMs = limiter.retryAfterMs(account);
      throw new RateLimitedError(
        `Too many switch commands: at most ${SWITCH_LIMIT} per ${SWITCH_WINDOW_MS / 1000} s ` +
          `per account; try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s`,
        { code: "rate_limited", retryAfterSeconds: Math.max(1, waitMs / 1000) },
      );
    },
  };
}
