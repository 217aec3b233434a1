/**
 * The heaters as the printer service knows them: each heater's latest reading and target, the
 * time of the last report, and the bounded temperature history. A target set by a command holds
 * from its acknowledgement on; a report without a target keeps the one known.
 *
 * @module
 */
import { UsageError } from "../error.ts";
import type { HeaterReading, PrinterSnapshot, TemperatureSample } from "./printer.ts";
import { Recent } from "./recent.ts";

/** Options of {@linkcode Heaters}. */
export interface HeatersOptions {
  /** The time before the first report (ms since the epoch). */
  now: number;
  /** Temperature samples kept. @default 1800 */
  historySamples?: number;
  /** Oldest temperature sample kept, ms. @default 30 minutes */
  historyMaxAgeMs?: number;
}

/**
 * The heaters' readings and their history.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Heaters } from "./heaters.ts";
 * const h = new Heaters({ now: 0 });
 * h.report({ T0: { actual: 21, target: null } }, 1000);
 * h.setTarget("T0", 200);
 * assert.deepEqual(h.snapshot("OPERATIONAL").temperatures.T0, { actual: 21, target: 200 });
 * assert.equal(h.history().length, 1);
 * ```
 */
export class Heaters {
  readonly #history: Recent<TemperatureSample>;
  #readings: Record<string, HeaterReading> = {};
  #time: number;

  constructor(options: HeatersOptions) {
    this.#time = options.now;
    this.#history = new Recent(
      options.historySamples ?? 1800,
      options.historyMaxAgeMs ?? 30 * 60_000,
    );
  }

  /** The readings at the last report, in the printer's `state`. */
  snapshot(state: PrinterSnapshot["state"]): PrinterSnapshot {
    return { state, temperatures: structuredClone(this.#readings), time: this.#time };
  }

  /** The temperature samples kept, oldest first. */
  history(): TemperatureSample[] {
    return this.#history.items();
  }

  /** Throws when the printer reported heaters and `heater` is none of them. */
  checkKnown(heater: string): void {
    const known = Object.keys(this.#readings);
    if (known.length > 0 && !known.includes(heater)) {
      throw new UsageError(`Unknown heater '${heater}': the printer reports ${known.join(", ")}`);
    }
  }

  /** A report of the printer at `time`: the new readings, and a sample in the history. */
  report(temperatures: Record<string, { actual: number; target?: number | null }>, time: number) {
    const next: Record<string, HeaterReading> = {};
    for (const [name, r] of Object.entries(temperatures)) {
      next[name] = { actual: r.actual, target: r.target ?? this.#readings[name]?.target ?? null };
    }
    this.#readings = next;
    this.#time = time;
    this.#history.push({ time, temperatures: structuredClone(next) });
  }

  /** An acknowledged target; false when the heater has not reported yet (nothing to change). */
  setTarget(heater: string, celsius: number): boolean {
    const reading = this.#readings[heater];
    if (!reading) return false;
    this.#readings = { ...this.#readings, [heater]: { ...reading, target: celsius } };
    return true;
  }

  /** The connection ended: no heater is known until the next report (the history stays). */
  clear(): void {
    this.#readings = {};
  }
}
