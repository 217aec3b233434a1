/**
 * The displayed ETA of one segment, made to count down. Each raw estimate is turned into an
 * arrival time (sample time + ETA) and the median arrival of the last
 * {@linkcode SMOOTHING_SECONDS} is the smoothed estimate; the first display waits for half that
 * window. From then on the display runs like a clock (one second per second of sample time) while
 * it agrees with the smoothed estimate within {@linkcode DEAD_BAND}; when the heater turns out
 * slower, the clock runs slower (down to {@linkcode SLOWEST_CLOCK}), never stops — a display that
 * stands still while the temperature moves looks dead — until they agree again; when it is faster,
 * the display moves half way down at each update. So the display never goes up.
 *
 * One exception keeps the display honest: when the smoothed estimate stays more than half (and
 * {@linkcode REVISION_MIN_SECONDS}) above the display for {@linkcode REVISION_HOLD_SECONDS}, the
 * heater is much slower than it looked (a fan, a door, a weak bed) and the display jumps up to
 * the new estimate once.
 *
 * In the braking band (the last degrees before a heating target, see `approach.ts`) a display
 * that the estimate undercuts by less than a fifth ({@linkcode BRAKING_GRADUAL}) follows it
 * gradually (time constant half the display, at most {@linkcode BRAKING_TAU}) instead of half way
 * per update: a heater that runs ahead of its estimate there is usually a controller still at
 * full power that is about to brake, and the time it gains now it loses again over the last
 * degree (the bed with a long tail: the estimate slid 20 % short for a minute, then the heater
 * took the time back). A larger undercut is followed half way per update, as outside the band,
 * down to that fifth. The cost: a heater that does not brake late (a weak bed, a controller with
 * a strong integral) is shown too long for longer near its end.
 *
 * @module
 */

/** Seconds of raw estimates the median runs over. */
export const SMOOTHING_SECONDS = 10;
/** A revision must exceed the display by this share … */
export const REVISION_SHARE = 1.5;
/** … and by this many seconds … */
export const REVISION_MIN_SECONDS = 30;
/** … for this long before the display jumps up. */
export const REVISION_HOLD_SECONDS = 15;

/** Within this share of the ETA (at least DEAD_BAND_MIN s) the display runs at clock speed. */
export const DEAD_BAND = 0.03;
/** The dead band's floor, s. */
export const DEAD_BAND_MIN = 2;

/** A display the estimate exceeds counts down no slower than this share of the clock … */
export const SLOWEST_CLOCK = 0.3;
/** … reached when the estimate is later by this share of the display. */
export const SLOW_SCALE = 0.2;

/** In the braking band, an estimate above this share of the display is followed gradually … */
export const BRAKING_GRADUAL = 0.8;
/** … with a time constant of half the display, at most this many seconds. */
export const BRAKING_TAU = 45;

/** How the display follows an earlier estimate. */
interface Follow {
  /** Seconds since the display was last updated. */
  dt: number;
  /** In the braking band: small undercuts are followed gradually. */
  braking: boolean;
}

/**
 * The next display from the last one (`held`, not counted down), the same counted down to now
 * (`running`) and the smoothed estimate: the clock runs while they agree within the dead band;
 * it stops (the display holds) while the estimate is later, and the display moves half way down
 * while the estimate is earlier (in the braking band: gradually, when the estimate is earlier by
 * less than a fifth). Never above `held`.
 */
function follow(held: number, running: number, smooth: number, how: Follow): number {
  const band = Math.max(DEAD_BAND_MIN, DEAD_BAND * running);
  if (smooth > running + band) {
    // Slower than shown: count down at a slower clock, never stop (a frozen display looks dead).
    const lag = Math.min(1, (smooth - running - band) / Math.max(10, SLOW_SCALE * running));
    return Math.min(held, Math.max(0, held - how.dt * (1 - (1 - SLOWEST_CLOCK) * lag)));
  }
  if (smooth >= running - band) return running;
  if (how.braking && smooth >= BRAKING_GRADUAL * running) {
    const tau = Math.min(BRAKING_TAU, running / 2);
    return running + (smooth - running) * (1 - Math.exp(-how.dt / tau));
  }
  return running + (smooth - running) / 2;
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
  #shownAtBefore = 0;
  #revisingBefore: number | null = null;

  /** The last displayed ETA, counted on to `t`. */
  shownAt(t: number): number | null {
    return this.#shown === null ? null : Math.max(0, this.#shown - (t - this.#shownAt));
  }

  /**
   * Takes a raw estimate (seconds) at sample time `t` and returns the ETA to display; `braking`:
   * the heater is in the braking band before its heating target. A null estimate returns null
   * and keeps the history (a gap does not restart the countdown).
   */
  update(t: number, raw: number | null, braking = false): number | null {
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
    if (!repeat) {
      this.#shownAtBefore = this.#shownAt;
      this.#revisingBefore = this.#revisingSince;
    }
    // A repeat recomputes from the state before the sample, the pending revision included.
    this.#revisingSince = this.#revisingBefore;
    this.#shownBefore = previous;
    this.#heldBefore = held;
    const how = { dt: t - this.#shownAtBefore, braking };
    let shown = previous === null || held === null ? smooth : follow(held, previous, smooth, how);
    if (
      previous !== null &&
      smooth > Math.max(previous * REVISION_SHARE, previous + REVISION_MIN_SECONDS)
    ) {
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
