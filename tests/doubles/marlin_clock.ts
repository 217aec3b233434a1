/**
 * The Marlin simulator's time: a {@linkcode Clock} that runs `speed` times faster than real time,
 * and can jump ahead (`advance`), so a heat-up of minutes takes seconds in a test.
 *
 * @module
 */
import type { Clock } from "../../lib/clock.ts";

/** A clock a test can move on by hand, like `ManualClock` in `tests/_fake_clock.ts`. */
export interface SimClock extends Clock {
  /** Moves the clock `ms` of simulated time ahead at once, running the interval timers. */
  advance(ms: number): void;
}

/** The shortest real period of an interval timer, whatever the speed. */
const MIN_REAL_MS = 10;

/** A clock at `speed` × real time; interval timers run at least every 10 ms of real time. */
export function scaledClock(speed: number, start = Date.now()): SimClock {
  const origin = performance.now();
  let skipped = 0;
  const intervals = new Set<() => void>();
  return {
    now: () => start + (performance.now() - origin) * speed + skipped,
    setTimeout(fn, ms) {
      const id = setTimeout(fn, ms / speed);
      return () => clearTimeout(id);
    },
    setInterval(fn, ms) {
      const id = setInterval(fn, Math.max(ms / speed, MIN_REAL_MS));
      intervals.add(fn);
      return () => {
        clearInterval(id);
        intervals.delete(fn);
      };
    },
    advance(ms) {
      skipped += ms;
      for (const fn of intervals) fn();
    },
  };
}
