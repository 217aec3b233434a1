/**
 * The displayed ETA of one segment, made to count down. Each raw estimate is turned into an
 * arrival time (sample time + ETA) and the median arrival of the last
 * {@linkcode SMOOTHING_SECONDS} is the smoothed estimate; the first display waits for half that
 * window. From then on the display runs like a clock (one second per second of sample time) while
 * it agrees with the smoothed estimate within {@linkcode DEAD_BAND}; when the heater turns out
 * slower, the clock stops (the display holds) until they agree again; when it is faster, the
 * display moves half way down at each update. So the display never goes up.
 *
 * One exception keeps the display honest: when the smoothed estimate stays more than half (and
 * {@linkcode REVISION_MIN_SECONDS}) above the display for {@linkcode REVISION_HOLD_SECONDS}, the
 * heater is much slower than it looked (a fan, a door, a weak bed) and the display jumps up to
 * the new estimate once.
 *
 * @module
 */

/** Seconds of raw estimates the median runs over. */
export const SMOOTHING_SECONDS = 10;
/** A revision must exceed the display by this many seconds (and by half) … */
export const REVISION_MIN_SECONDS = 30;
/** … for this long before the display jumps up. */
export const REVISION_HOLD_SECONDS = 15;

/** Within this share of the ETA (at least 2 s) the display runs at clock speed, ignoring noise. */
export const DEAD_BAND = 0.03;

/**
 * The next display from the last one (`held`, not counted down), the same counted down to now
 * (`running`) and the smoothed estimate: the clock runs while they agree within the dead band;
 * it stops (the display holds) while the estimate is later, and the display moves half way down
 * while the estimate is earlier. Never above `held`.
 */
function follow(held: number, running: number, smooth: number): number {
  const band = Math.max(2, DEAD_BAND * running);
  if (smooth > running + band) return Math.min(held, smooth - band);
  if (smooth < running - band) return running + (smooth - running) / 2;
  return running;
}

/** Counts one segment's ETA down. */
export class Countdown {
  #arrivals: Array<{ t: number; at: number }> = [];
  #shown: number | null = null;
  #shownAt = 0;
  #revisingSince: number | null = null;
  /** The display before the newest sample's first estimate (a repeat recomputes from it). */
  #shownBefore: number | null = null;
  #heldBefore: number | null = null;

  /** The last displayed ETA, counted on to `t`. */
  shownAt(t: number): number | null {
    return this.#shown === null ? null : Math.max(0, this.#shown - (t - this.#shownAt));
  }

  /**
   * Takes a raw estimate (seconds) at sample time `t` and returns the ETA to display.
   * A null estimate returns null and keeps the history (a gap does not restart the countdown).
   */
  update(t: number, raw: number | null): number | null {
    if (raw === null || !Number.isFinite(raw)) return null;
    const list = this.#arrivals;
    const last = list[list.length - 1];
    if (last && t < last.t) return this.shownAt(t);
    // A second estimate for the same sample replaces the first (several computes per sample).
    if (last && t === last.t) list.pop();
    list.push({ t, at: t + Math.max(0, raw) });
    while (list[0]!.t < t - SMOOTHING_SECONDS) list.shift();
    // The first display waits for half a smoothing window: early estimates are the least sure.
    if (this.#shown === null && t - list[0]!.t < SMOOTHING_SECONDS / 2) return null;
    const sorted = list.map((a) => a.at).sort((a, b) => a - b);
    const smooth = Math.max(0, sorted[(sorted.length - 1) >> 1]! - t);
    const repeat = last !== undefined && t === last.t;
    const held = repeat ? this.#heldBefore : this.#shown;
    const previous = repeat ? this.#shownBefore : this.shownAt(t);
    this.#shownBefore = previous;
    this.#heldBefore = held;
    let shown = previous === null || held === null ? smooth : follow(held, previous, smooth);
    if (previous !== null && smooth > Math.max(previous * 1.5, previous + REVISION_MIN_SECONDS)) {
      this.#revisingSince ??= t;
      if (t - this.#revisingSince >= REVISION_HOLD_SECONDS) {
        shown = smooth;
        this.#revisingSince = null;
      }
    } else this.#revisingSince = null;
    this.#shown = shown;
    this.#shownAt = t;
    return shown;
  }
}
