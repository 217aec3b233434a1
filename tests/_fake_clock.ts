/**
 * A clock for tests that only moves when told to (`advance`), firing due timers in order.
 *
 * @module
 */
import type { Clock } from "../lib/clock.ts";

interface Timer {
  due: number;
  fn: () => void;
  every: number | null;
}

/** A manual clock implementing {@linkcode Clock}. */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers = new Map<number, Timer>();

  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): () => void {
    const id = ++this.#seq;
    this.#timers.set(id, { due: this.#now + Math.max(0, ms), fn, every: null });
    return () => this.#timers.delete(id);
  }

  setInterval(fn: () => void, ms: number): () => void {
    const id = ++this.#seq;
    this.#timers.set(id, { due: this.#now + ms, fn, every: Math.max(1, ms) });
    return () => this.#timers.delete(id);
  }

  /** Delays of the pending timers, soonest first. */
  pendingDelays(): number[] {
    return [...this.#timers.values()].map((t) => t.due - this.#now).sort((a, b) => a - b);
  }

  /** Number of pending timers. */
  get timerCount(): number {
    return this.#timers.size;
  }

  /** Moves time forward, running every timer that falls due, in order (ties by creation). */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const next = [...this.#timers.entries()].filter(([, t]) => t.due <= end)
        .sort((a, b) => a[1].due - b[1].due || a[0] - b[0])[0];
      if (!next) break;
      const [id, timer] = next;
      this.#now = timer.due;
      if (timer.every === null) this.#timers.delete(id);
      else timer.due += timer.every;
      timer.fn();
    }
    this.#now = end;
  }
}
