/**
 * A segment's long memory of readings: the mean of every {@linkcode BUCKET_SECONDS} of samples,
 * kept for {@linkcode BUCKET_MEMORY} seconds, whatever `history_max_age` keeps. A slow heater
 * (a chamber warming at 0.02 °C/s, a bed creeping over its last degree) moves less within the
 * 10 s trend window than its sensor's noise: its rate can only be measured over minutes. Bucket
 * means hold that long view in a few dozen numbers; the trend over the last `window` seconds of
 * them is a plain least-squares line, so its slope is the rate at the window's middle. Pure data.
 *
 * @module
 */
import { type Sample, type Trend, trendOf } from "./estimate.ts";

/** Seconds of samples one bucket averages. */
export const BUCKET_SECONDS = 5;
/** Seconds of buckets kept. */
export const BUCKET_MEMORY = 600;

/** Bucket means of a segment's samples, oldest first. */
export class SampleBuckets {
  #done: Sample[] = [];
  #open: { from: number; n: number; t: number; x: number } | null = null;
  #lastT = -Infinity;

  /** Adds every sample newer than the last one added (samples oldest first). */
  addAll(samples: readonly Sample[]): void {
    for (const s of samples) if (s.t > this.#lastT) this.#add(s);
  }

  #add(s: Sample): void {
    this.#lastT = s.t;
    const open = this.#open;
    if (open && s.t < open.from + BUCKET_SECONDS) {
      open.n++;
      open.t += s.t;
      open.x += s.actual;
      return;
    }
    if (open) this.#done.push({ t: open.t / open.n, actual: open.x / open.n });
    this.#open = { from: s.t, n: 1, t: s.t, x: s.actual };
    while (this.#done.length > 0 && this.#done[0]!.t < s.t - BUCKET_MEMORY) this.#done.shift();
  }

  /** The closed buckets' means, oldest first. */
  get means(): readonly Sample[] {
    return this.#done;
  }

  /** Seconds the closed buckets span. */
  get span(): number {
    const d = this.#done;
    return d.length < 2 ? 0 : d[d.length - 1]!.t - d[0]!.t;
  }

  /** The least-squares trend over the closed buckets of the last `window` seconds. */
  trend(window: number): Trend | null {
    const d = this.#done;
    const last = d[d.length - 1];
    if (!last) return null;
    return trendOf(d.filter((b) => b.t >= last.t - window));
  }
}
