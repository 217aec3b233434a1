/**
 * The per-heater state machine of the Temperature ETA plugin. It takes the printer's readings,
 * keeps one history per heater (cleared when the heater's target changes), computes every heater's
 * status on each `compute`, and `tick` decides which heaters are due for publishing: a heater is
 * published when its state changed or `update_interval` passed since its own last publication
 * (throttled per heater, not by one global timer).
 *
 * @module
 */
import type { HeaterReading } from "../../lib/host/mod.ts";
import type { TempEtaSettings } from "./schema.ts";
import { HeaterHistory } from "./history.ts";
import { classify, coolingTargetOf } from "./classify.ts";
import { SegmentTracker } from "./tracker.ts";
import { slowdownOf } from "./approach.ts";
import type { HeaterStatus } from "./status.ts";

/** A state change of one heater. */
export interface StateChange {
  heater: string;
  state: HeaterStatus["state"];
  previous_state: HeaterStatus["state"];
  /** The direction the heater was estimated in before the change. */
  previous_kind: HeaterStatus["eta_kind"];
  timestamp: number;
  actual: number;
  target: number | null;
}

/** What {@linkcode EtaCalculator.tick} returns. */
export interface TickResult {
  /** Heaters due for publishing. */
  due: HeaterStatus[];
  /** State changes found in this tick. */
  changes: StateChange[];
}

interface HeaterState {
  history: HeaterHistory;
  /** `heating:<target>` or `off`; a new segment clears the history. */
  segment: string;
  startActual: number;
  /** The segment's estimator; made at the first compute, remade when its goal changes. */
  tracker: SegmentTracker | null;
  reading: HeaterReading;
  status?: HeaterStatus;
  publishedAt?: number;
}

/** Sorts heater names: tools by index, then bed, chamber, then the rest by name. */
export function compareHeaters(a: string, b: string): number {
  const rank = (h: string) => {
    const tool = /^tool(\d+)$/.exec(h);
    if (tool) return [0, Number(tool[1])] as const;
    return [h === "bed" ? 1 : h === "chamber" ? 2 : 3, 0] as const;
  };
  const [ra, ia] = rank(a), [rb, ib] = rank(b);
  return ra - rb || ia - ib || a.localeCompare(b);
}

/** Computes and throttles the ETAs of all heaters. */
export class EtaCalculator {
  #settings: TempEtaSettings;
  #heaters = new Map<string, HeaterState>();

  constructor(settings: TempEtaSettings) {
    this.#settings = settings;
  }

  /** Applies new settings (history limits at once, the rest at the next compute). */
  configure(settings: TempEtaSettings): void {
    this.#settings = settings;
    for (const h of this.#heaters.values()) h.history.setLimits(this.#limits());
  }

  #limits() {
    return {
      maxAge: this.#settings.history_max_age,
      maxSamples: this.#settings.history_max_samples,
    };
  }

  /** Records one reading of a heater taken at `t` seconds (printer clock). */
  addReading(heater: string, reading: HeaterReading, t: number): void {
    if (!Number.isFinite(reading.actual)) return;
    const target = reading.target !== null && reading.target > 0 ? reading.target : null;
    const segment = target === null ? "off" : `heating:${target}`;
    let h = this.#heaters.get(heater);
    if (!h) {
      h = {
        history: new HeaterHistory(this.#limits()),
        segment,
        startActual: reading.actual,
        tracker: null,
        reading,
      };
      this.#heaters.set(heater, h);
    }
    if (h.segment !== segment) {
      h.history.clear();
      h.segment = segment;
      h.startActual = reading.actual;
      h.tracker = null;
    }
    h.reading = { actual: reading.actual, target };
    h.history.add({ t, actual: reading.actual });
  }

  /** Deletes history older than `history_max_age`; returns the number of samples removed. */
  cleanup(): number {
    let removed = 0;
    for (const h of this.#heaters.values()) removed += h.history.cleanup();
    return removed;
  }

  /** Forgets every heater's history and status. */
  reset(): void {
    this.#heaters.clear();
  }

  #tracker(name: string, h: HeaterState): SegmentTracker | null {
    const target = h.reading.target;
    const goal = target !== null ? target : coolingTargetOf(name, this.#settings);
    if (goal === null) return null;
    const heating = target !== null;
    if (h.tracker?.target !== goal || h.tracker.heating !== heating) {
      h.tracker = new SegmentTracker(heating, goal, h.startActual, slowdownOf(name));
    }
    return h.tracker;
  }

  /** Computes every heater's status at `nowMs` (wall clock, for the time stamp). */
  compute(nowMs: number): HeaterStatus[] {
    const out: HeaterStatus[] = [];
    for (const name of [...this.#heaters.keys()].sort(compareHeaters)) {
      const h = this.#heaters.get(name)!;
      const status = classify(
        name,
        h.reading,
        h.history.samples,
        this.#tracker(name, h),
        this.#settings,
      );
      out.push({ ...status, timestamp: nowMs / 1000 });
    }
    return out;
  }

  /** The statuses of the last tick, in heater order. */
  statuses(): HeaterStatus[] {
    return [...this.#heaters.keys()].sort(compareHeaters)
      .map((name) => this.#heaters.get(name)!.status)
      .filter((s): s is HeaterStatus => s !== undefined);
  }

  /** Computes all heaters and returns those due for publishing, and the state changes. */
  tick(nowMs: number): TickResult {
    const s = this.#settings;
    const due: HeaterStatus[] = [];
    const changes: StateChange[] = [];
    const period = s.update_interval * 1000 - s.calculation_interval * 500;
    for (const status of this.compute(nowMs)) {
      const h = this.#heaters.get(status.heater)!;
      const previous = h.status;
      h.status = status;
      const changed = previous !== undefined && previous.state !== status.state;
      if (changed) {
        changes.push({
          heater: status.heater,
          state: status.state,
          previous_state: previous.state,
          previous_kind: previous.eta_kind,
          timestamp: status.timestamp,
          actual: status.actual,
          target: status.target,
        });
      }
      if (changed || h.publishedAt === undefined || nowMs - h.publishedAt >= period) {
        h.publishedAt = nowMs;
        due.push(status);
      }
    }
    return { due, changes };
  }
}
