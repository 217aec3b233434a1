/**
 * A bounded list of the newest items, oldest first: the temperature history and the terminal
 * lines of the printer service (a printer that talks for days never grows memory).
 *
 * @module
 */

/**
 * The newest `max` items, and none older than `maxAgeMs` when items carry a `time`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Recent } from "./recent.ts";
 * const r = new Recent<{ time: number }>(2);
 * for (const time of [1, 2, 3]) r.push({ time });
 * assert.deepEqual(r.items().map((i) => i.time), [2, 3]);
 * ```
 */
export class Recent<T extends { time: number }> {
  readonly #max: number;
  readonly #maxAgeMs: number;
  #items: T[] = [];

  constructor(max: number, maxAgeMs = Infinity) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`Cannot keep ${max} items: the size must be a positive integer`);
    }
    this.#max = max;
    this.#maxAgeMs = maxAgeMs;
  }

  /** Adds an item, dropping the oldest beyond the size and those older than the age. */
  push(item: T): void {
    this.#items.push(item);
    const tooOld = item.time - this.#maxAgeMs;
    let drop = Math.max(0, this.#items.length - this.#max);
    while (drop < this.#items.length && this.#items[drop]!.time < tooOld) drop++;
    // Dropping in batches keeps a push O(1) amortised.
    if (drop > 0 && (drop >= 64 || this.#items.length > this.#max)) this.#items.splice(0, drop);
  }

  /** The items kept, oldest first (a copy). */
  items(): T[] {
    const tooOld = (this.#items.at(-1)?.time ?? 0) - this.#maxAgeMs;
    return this.#items.filter((i) => i.time >= tooOld).slice(-this.#max);
  }
}
