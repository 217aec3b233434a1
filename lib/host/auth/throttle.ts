/**
 * Failed-login back-off, per account and per client address. Only failures count (a user's
 * own successful logins never slow them down), an account backs off exponentially after a few
 * failures but never longer than a short cap, and a success clears its account's failures: a
 * guesser is slowed to a few tries a minute per account while the real user waits seconds, not
 * hours.
 *
 * @module
 */

/** Options of {@linkcode LoginThrottle}. */
export interface LoginThrottleOptions {
  /** Time source in ms. @default Date.now */
  now?: () => number;
  /** Failures of an account before it backs off. @default 3 */
  freeFailures?: number;
  /** Longest back-off of an account in ms (1 s, 2 s, 4 s... up to this). @default 30 000 */
  maxDelayMs?: number;
  /** Failures of one address within `windowMs` before that address is refused. @default 30 */
  addressFailures?: number;
  /** Window of the address count, and how long an account's failures are remembered. @default 5 min */
  windowMs?: number;
}

interface AccountState {
  failures: number;
  last: number;
}

/** Longest user name kept as a key (longer names share the key of their first 64 characters). */
const KEY_LENGTH = 64;
/** Keys kept before old ones are pruned. */
const MAX_KEYS = 10_000;

/**
 * The back-off state of logins.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LoginThrottle } from "./throttle.ts";
 * let t = 0;
 * const throttle = new LoginThrottle({ now: () => t, freeFailures: 2 });
 * throttle.failed("ann", "10.0.0.1");
 * assert.equal(throttle.check("ann", "10.0.0.1"), 0, "the first failure is free");
 * throttle.failed("ann", "10.0.0.1");
 * assert.equal(throttle.check("ann", "10.0.0.9"), 1000, "the account waits 1 s, from anywhere");
 * t = 1000;
 * assert.equal(throttle.check("ann", "10.0.0.1"), 0);
 * ```
 */
export class LoginThrottle {
  #now: () => number;
  #free: number;
  #maxDelay: number;
  #addressMax: number;
  #window: number;
  #accounts = new Map<string, AccountState>();
  #addresses = new Map<string, number[]>();

  constructor(options: LoginThrottleOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#free = options.freeFailures ?? 3;
    this.#maxDelay = options.maxDelayMs ?? 30_000;
    this.#addressMax = options.addressFailures ?? 30;
    this.#window = options.windowMs ?? 5 * 60_000;
  }

  /** Milliseconds to wait before this login may be tried; 0 when it may be tried now. */
  check(user: string, address: string): number {
    const now = this.#now();
    let wait = 0;
    const account = this.#accounts.get(user.slice(0, KEY_LENGTH));
    if (account && now - account.last < this.#window && account.failures >= this.#free) {
      const delay = Math.min(1000 * 2 ** (account.failures - this.#free), this.#maxDelay);
      wait = Math.max(wait, account.last + delay - now);
    }
    const times = this.#recent(address, now);
    if (times.length >= this.#addressMax) wait = Math.max(wait, times[0]! + this.#window - now);
    return Math.max(0, wait);
  }

  /** Records a failed login. */
  failed(user: string, address: string): void {
    const now = this.#now();
    const key = user.slice(0, KEY_LENGTH);
    const account = this.#accounts.get(key);
    const fresh = account && now - account.last < this.#window;
    this.#accounts.set(key, { failures: fresh ? account.failures + 1 : 1, last: now });
    const times = this.#recent(address, now);
    times.push(now);
    this.#addresses.set(address, times);
    if (this.#accounts.size + this.#addresses.size > MAX_KEYS) this.prune();
  }

  /** Records a successful login: the account's failures are forgotten. */
  succeeded(user: string): void {
    this.#accounts.delete(user.slice(0, KEY_LENGTH));
  }

  /** Forgets what no longer counts. */
  prune(): void {
    const now = this.#now();
    for (const [k, a] of this.#accounts) if (now - a.last >= this.#window) this.#accounts.delete(k);
    for (const [k] of this.#addresses) {
      if (this.#recent(k, now).length === 0) this.#addresses.delete(k);
    }
  }

  #recent(address: string, now: number): number[] {
    const times = (this.#addresses.get(address) ?? []).filter((t) => now - t < this.#window);
    if (times.length === 0) this.#addresses.delete(address);
    else this.#addresses.set(address, times);
    return times;
  }
}
