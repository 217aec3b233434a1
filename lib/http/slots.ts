/**
 * Caps on long-lived connections (push sockets, event streams): at most `perKey` per account
 * (or client address) and `total` over all. A connection takes a slot when it is accepted and
 * gives it back when it really ends, so a client that stopped reading keeps counting until its
 * connection is gone.
 *
 * @module
 */

/** Limits of {@linkcode ConnectionSlots}. */
export interface SlotLimits {
  /** Connections of one key (account or address). */
  perKey: number;
  /** Connections over all keys. */
  total: number;
}

/** A taken slot. */
export interface Slot {
  /** The key it counts for now. */
  readonly key: string;
  /** Gives the slot back (again: nothing). */
  release(): void;
  /** Counts the slot for another key (an account known later); false when that key is full. */
  move(key: string): boolean;
}

/**
 * Counts connections per key and overall.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConnectionSlots } from "./slots.ts";
 * const slots = new ConnectionSlots({ perKey: 1, total: 2 });
 * const a = slots.take("alice")!;
 * assert.equal(slots.take("alice"), null);
 * a.release();
 * assert.ok(slots.take("alice"));
 * ```
 */
export class ConnectionSlots {
  readonly limits: Readonly<SlotLimits>;
  #byKey = new Map<string, number>();
  #total = 0;

  constructor(limits: SlotLimits) {
    for (const [name, n] of Object.entries(limits)) {
      if (!Number.isInteger(n) || n < 1) {
        throw new RangeError(`Cannot cap connections: '${name}' must be a positive integer`);
      }
    }
    this.limits = { ...limits };
  }

  /** Connections counted over all keys. */
  get size(): number {
    return this.#total;
  }

  /** Connections counted for `key`. */
  count(key: string): number {
    return this.#byKey.get(key) ?? 0;
  }

  /** Takes a slot for `key`; null when the key or the whole is at its cap. */
  take(key: string): Slot | null {
    if (this.#total >= this.limits.total || this.count(key) >= this.limits.perKey) return null;
    this.#total++;
    this.#add(key, 1);
    let current = key;
    let held = true;
    return {
      get key() {
        return current;
      },
      release: () => {
        if (!held) return;
        held = false;
        this.#total--;
        this.#add(current, -1);
      },
      move: (next) => {
        if (!held) return false;
        if (next === current) return true;
        if (this.count(next) >= this.limits.perKey) return false;
        this.#add(current, -1);
        this.#add(next, 1);
        current = next;
        return true;
      },
    };
  }

  #add(key: string, n: number): void {
    const now = this.count(key) + n;
    if (now > 0) this.#byKey.set(key, now);
    else this.#byKey.delete(key);
  }
}
