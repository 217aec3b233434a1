/**
 * The sample history of one heater: samples in time order, at most `history_max_samples`, and
 * nothing older than `history_max_age` seconds before the newest sample once cleaned. Ages are
 * measured on the samples' own (printer) clock, so a sped-up printer clock stays consistent.
 *
 * @module
 */
import type { Sample } from "./estimate.ts";

/** Limits of a history. */
export interface HistoryLimits {
  /** Seconds kept behind the newest sample. */
  maxAge: number;
  /** Samples kept at most. */
  maxSamples: number;
}

/** A bounded, time-ordered sample buffer. */
export class HeaterHistory {
  #samples: Sample[] = [];
  #limits: HistoryLimits;

  constructor(limits: HistoryLimits) {
    this.#limits = { ...limits };
  }

  /** The samples, oldest first (a read-only view). */
  get samples(): readonly Sample[] {
    return this.#samples;
  }

  /** The newest sample. */
  get last(): Sample | undefined {
    return this.#samples[this.#samples.length - 1];
  }

  /** Changes the limits; the sample cap applies at once, the age limit at the next cleanup. */
  setLimits(limits: HistoryLimits): void {
    this.#limits = { ...limits };
    this.#trimCount();
  }

  /**
   * Appends a sample. A sample not newer than the last one replaces it (same time) or is
   * dropped (older), so the history stays strictly ordered. Non-finite readings are ignored.
   */
  add(sample: Sample): void {
    if (!Number.isFinite(sample.t) || !Number.isFinite(sample.actual)) return;
    const last = this.last;
    if (last && sample.t < last.t) return;
    if (last && sample.t === last.t) this.#samples[this.#samples.length - 1] = { ...sample };
    else this.#samples.push({ ...sample });
    this.#trimCount();
  }

  /** Deletes samples older than `maxAge` seconds before the newest; returns how many. */
  cleanup(): number {
    const last = this.last;
    if (!last) return 0;
    const keepFrom = this.#samples.findIndex((s) => s.t >= last.t - this.#limits.maxAge);
    const removed = keepFrom < 0 ? 0 : keepFrom;
    if (removed > 0) this.#samples.splice(0, removed);
    return removed;
  }

  /** Empties the history. */
  clear(): void {
    this.#samples = [];
  }

  #trimCount(): void {
    const extra = this.#samples.length - this.#limits.maxSamples;
    if (extra > 0) this.#samples.splice(0, extra);
  }
}
