/**
 * A sliding-window rate limiter keyed by client (the client address, the account, or both with
 * {@linkcode SlidingWindowLimiter.attemptAll}). An attempt is recorded only when it is allowed,
 * so rejected attempts do not extend a block.
 *
 * @module
 */

/** Options of {@linkcode SlidingWindowLimiter}. */
export interface RateLimitOptions {
  /** Allowed requests per window. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /** Monotonic time source in milliseconds. @default performance.now */
  now?: () => number;
}

/**
 * Allows at most `max` attempts per key in any `windowMs` window.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SlidingWindowLimiter } from "./rate_limit.ts";
 * let t = 0;
 * const limiter = new SlidingWindowLimiter({ max: 2, windowMs: 1000, now: () => t });
 * assert.ok(limiter.attempt("a") && limiter.attempt("a") && !limiter.attempt("a"));
 * t = 1001;
 * assert.ok(limiter.attempt("a"));
 * ```
 */
export class SlidingWindowLimiter {
  #max: number;
  #windowMs: number;
  #now: () => number;
  #hits = new Map<string, number[]>();

  constructor(options: RateLimitOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new RangeError(`Cannot create limiter: 'max' must be a positive integer`);
    }
    if (!(options.windowMs > 0)) {
      throw new RangeError(`Cannot create limiter: 'windowMs' must be positive`);
    }
    this.#max = options.max;
    this.#windowMs = options.windowMs;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Records an attempt for `key`; returns false (and records nothing) when over the limit. */
  attempt(key: string): boolean {
    const now = this.#now();
    const recent = (this.#hits.get(key) ?? []).filter((t) => now - t < this.#windowMs);
    if (recent.length >= this.#max) {
      this.#hits.set(key, recent);
      return false;
    }
    recent.push(now);
    this.#hits.set(key, recent);
    if (this.#hits.size > 10_000) this.prune();
    return true;
  }

  /**
   * Records one attempt under every key (e.g. the account and the address) when each of them
   * is under the limit; returns false and records nothing when any is over it. So a client gets
   * one budget per account however many addresses it comes from, and one per address however
   * many accounts it uses.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { SlidingWindowLimiter } from "./rate_limit.ts";
   * const limiter = new SlidingWindowLimiter({ max: 1, windowMs: 1000, now: () => 0 });
   * assert.ok(limiter.attemptAll(["account:ann", "address:127.0.0.2"]));
   * assert.ok(!limiter.attemptAll(["account:ann", "address:127.0.0.3"]), "same account");
   * ```
   */
  attemptAll(keys: readonly string[]): boolean {
    if (keys.some((key) => this.retryAfterMs(key) > 0)) return false;
    for (const key of keys) this.attempt(key);
    return true;
  }

  /** The longest {@linkcode retryAfterMs} of `keys`. */
  retryAfterMsAll(keys: readonly string[]): number {
    return Math.max(0, ...keys.map((key) => this.retryAfterMs(key)));
  }

  /**
   * Milliseconds until `key` may try again (0 when it may now): when its oldest attempt in the
   * window leaves it. For a `Retry-After` header.
   */
  retryAfterMs(key: string): number {
    const now = this.#now();
    const recent = (this.#hits.get(key) ?? []).filter((t) => now - t < this.#windowMs);
    if (recent.length < this.#max) return 0;
    return Math.max(0, recent[recent.length - this.#max]! + this.#windowMs - now);
  }

  /** Forgets keys with no attempt inside the window. */
  prune(): void {
    const now = this.#now();
    for (const [key, times] of this.#hits) {
      if (times.every((t) => now - t >= this.#windowMs)) this.#hits.delete(key);
    }
  }

  /** Forgets every attempt. */
  reset(): void {
    this.#hits.clear();
  }
}
