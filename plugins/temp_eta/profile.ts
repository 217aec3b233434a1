/**
 * The rate profile of one heating or cooling segment: how the heater's rate has changed with its
 * temperature so far. Every half `linear_window` the estimator adds one point (temperature at the
 * middle of the window, least-squares rate over it); the profile keeps exponentially weighted sums
 * of them, so it holds no samples and its memory can outlast `history_max_age`. The memory is
 * chosen per point (about the heater's own time scale, distance / rate), and the profile restarts
 * whenever the rate reaches a new peak: the first seconds of a heat-up accelerate (the sensor lags
 * the element) and say nothing about how the rate will fall.
 *
 * Everything is in "progress" orientation: `x` is the temperature for heating and its negative
 * for cooling, so a heater always moves towards a larger `x` at a positive rate. Pure data, no I/O.
 *
 * @module
 */

/** One observation: temperature (`x`, oriented) at the middle of a window, and the rate there. */
export interface RatePoint {
  /** Sample time of the window's newest sample, s. */
  t: number;
  x: number;
  /** Oriented rate, °C/s (positive = towards the goal). */
  rate: number;
  /** Variance of the rate estimate (noise of the window's least-squares slope). */
  variance: number;
}

/** A first-order fit through a given asymptote: `rate = k · (asymptote − x)`. */
export interface ThroughFit {
  k: number;
  /** Weighted squared misfit of the rates. */
  sse: number;
}

/** Shortest and longest memory of the profile, s. */
export const MEMORY_LIMITS = { min: 20, max: 1200 } as const;

/** A rate must exceed the peak by this many of its standard deviations to restart the profile. */
export const RESTART_MARGIN = 2;

/** Exponentially weighted sums of rate points over temperature. */
export class RateProfile {
  #w = 0;
  #x = 0;
  #r = 0;
  #xx = 0;
  #xr = 0;
  #rr = 0;
  #last = -Infinity;
  #peak = -Infinity;
  #variance = 0;
  #count = 0;

  /** Points added since the last restart. */
  get count(): number {
    return this.#count;
  }

  /** The typical variance of one point's rate (a running mean). */
  get variance(): number {
    return this.#variance;
  }

  /**
   * Adds a point; older points fade with `exp(−Δt / memory)`. A rate above every earlier one by
   * more than {@linkcode RESTART_MARGIN} standard deviations restarts the profile with this point
   * (the heater accelerated; a noisy point does not throw the profile away).
   */
  add(p: RatePoint, memory: number): void {
    if (![p.t, p.x, p.rate, p.variance, memory].every(Number.isFinite)) return;
    const restart = p.rate - RESTART_MARGIN * Math.sqrt(p.variance) > this.#peak;
    this.#peak = Math.max(this.#peak, p.rate);
    if (restart) {
      this.#w =
        this.#x =
        this.#r =
        this.#xx =
        this.#xr =
        this.#rr =
          0;
      this.#count = 0;
    } else {
      const fade = Math.exp(-Math.max(0, p.t - this.#last) / memory);
      this.#w *= fade;
      this.#x *= fade;
      this.#r *= fade;
      this.#xx *= fade;
      this.#xr *= fade;
      this.#rr *= fade;
    }
    this.#last = p.t;
    this.#w += 1;
    this.#x += p.x;
    this.#r += p.rate;
    this.#xx += p.x * p.x;
    this.#xr += p.x * p.rate;
    this.#rr += p.rate * p.rate;
    this.#variance = this.#count === 0 ? p.variance : this.#variance * 0.8 + p.variance * 0.2;
    this.#count++;
  }

  /**
   * The best first-order line through `(asymptote, 0)` in rate-over-temperature space, and how
   * badly it fits; null when there is nothing to fit.
   */
  fitThrough(asymptote: number): ThroughFit | null {
    if (this.#count === 0) return null;
    const a = asymptote;
    // Σw·r·(a − x) and Σw·(a − x)².
    const sxr = a * this.#r - this.#xr;
    const sxx = this.#xx - 2 * a * this.#x + a * a * this.#w;
    if (!(sxx > 1e-12)) return null;
    const k = sxr / sxx;
    return { k, sse: Math.max(0, this.#rr - k * sxr) };
  }
}

/** The memory for a new point: the heater's time scale (distance / rate), within the limits. */
export function memoryFor(distance: number, rate: number): number {
  const scale = rate > 0 && distance > 0 ? distance / rate : MEMORY_LIMITS.max;
  return Math.min(MEMORY_LIMITS.max, Math.max(MEMORY_LIMITS.min, scale));
}
