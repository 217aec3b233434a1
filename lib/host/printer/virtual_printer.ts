/**
 * The embedded virtual printer: heaters tool0, bed and chamber following the thermal model,
 * a job state machine, and a clock that can run faster than real time. It implements the
 * plugin contract's {@linkcode PrinterAccess}; `temperatures` events come every simulated second.
 *
 * @module
 */
import type { Clock } from "../../clock.ts";
import { systemClock } from "../../clock.ts";
import { ConflictError, UsageError } from "../../error.ts";
import type {
  HeaterReading,
  PrinterAccess,
  PrinterEvent,
  PrinterSnapshot,
  PrinterState,
  TemperatureSample,
} from "../plugin.ts";
import { AMBIENT_C, HEATERS, type HeaterState, stepHeater } from "./thermal.ts";

/** Options of {@linkcode VirtualPrinter}. */
export interface VirtualPrinterOptions {
  /** Real-time source for the tick timer. @default systemClock */
  clock?: Clock;
  /** Simulated seconds per real second. @default 1 */
  speed?: number;
  /** Length of a simulated print job in seconds. @default 600 */
  jobSeconds?: number;
}

/** Progress of the current job. */
export interface JobStatus {
  state: PrinterState;
  /** Seconds printed so far (simulated). */
  printTime: number | null;
  printTimeLeft: number | null;
  /** Completion in percent. */
  completion: number | null;
}

/** The virtual printer. */
export class VirtualPrinter implements PrinterAccess {
  #clock: Clock;
  #speed: number;
  #jobSeconds: number;
  #heaters = new Map<string, HeaterState>();
  #state: PrinterState = "OPERATIONAL";
  #simTime: number;
  #printed = 0;
  #listeners = new Set<(e: PrinterEvent) => void>();
  #cancel: (() => void) | null = null;

  constructor(options: VirtualPrinterOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#speed = options.speed ?? 1;
    if (!(this.#speed > 0)) throw new RangeError("Cannot create printer: 'speed' must be positive");
    this.#jobSeconds = options.jobSeconds ?? 600;
    this.#simTime = this.#clock.now();
    for (const name of Object.keys(HEATERS)) {
      this.#heaters.set(name, { actual: AMBIENT_C, target: 0 });
    }
  }

  /** Starts the tick timer (one simulated second per tick). */
  start(): void {
    if (this.#cancel) return;
    this.#cancel = this.#clock.setInterval(() => this.tick(1), Math.max(1, 1000 / this.#speed));
  }

  /** Stops the tick timer. */
  stop(): void {
    this.#cancel?.();
    this.#cancel = null;
  }

  /** Heater names. */
  heaterNames(): string[] {
    return [...this.#heaters.keys()];
  }

  /** Advances the simulation by `seconds` (in whole-second steps) and emits events. */
  tick(seconds = 1): void {
    for (let i = 0; i < seconds; i++) {
      for (const [name, h] of this.#heaters) {
        this.#heaters.set(name, stepHeater(h, 1, HEATERS[name]!));
      }
      this.#simTime += 1000;
      if (this.#state === "PRINTING") {
        this.#printed += 1;
        if (this.#printed >= this.#jobSeconds) {
          this.#setState("FINISHING");
          this.#setState("OPERATIONAL");
        }
      }
      this.#emit({ type: "temperatures", snapshot: this.snapshot() });
    }
  }

  /** {@inheritDoc PrinterAccess.snapshot} */
  snapshot(): PrinterSnapshot {
    const temperatures: Record<string, HeaterReading> = {};
    for (const [name, h] of this.#heaters) {
      temperatures[name] = { actual: Math.round(h.actual * 100) / 100, target: h.target };
    }
    return { state: this.#state, temperatures, time: this.#simTime };
  }

  /** {@inheritDoc PrinterAccess.subscribe} */
  history(): TemperatureSample[] {
    return [];
  }

  subscribe(listener: (event: PrinterEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Sets a heater's target (0 turns it off).
   *
   * @throws {UsageError} for an unknown heater or a target outside 0..max.
   */
  setTarget(heater: string, target: number): void {
    const h = this.#heaters.get(heater);
    const params = HEATERS[heater];
    if (!h || !params) throw new UsageError(`Unknown heater '${heater}'`);
    if (
      typeof target !== "number" || !Number.isFinite(target) || target < 0 ||
      target > params.maxTemp
    ) {
      throw new UsageError(
        `Invalid target for ${heater}: must be a number from 0 to ${params.maxTemp}`,
      );
    }
    h.target = target;
  }

  /** Forces a heater's actual temperature (for tests and demos). */
  setActual(heater: string, actual: number): void {
    const h = this.#heaters.get(heater);
    if (!h) throw new UsageError(`Unknown heater '${heater}'`);
    h.actual = actual;
  }

  /** Job commands: start, pause (`action` pause | resume | toggle), cancel. */
  job(command: string, action = "toggle"): void {
    switch (command) {
      case "start":
        if (this.#state !== "OPERATIONAL") throw new ConflictError("Printer is not operational");
        this.#printed = 0;
        return this.#setState("PRINTING");
      case "pause": {
        const pause = action === "pause" || (action === "toggle" && this.#state === "PRINTING");
        if (pause && this.#state === "PRINTING") return this.#setState("PAUSED");
        if (!pause && this.#state === "PAUSED") return this.#setState("PRINTING");
        throw new ConflictError(pause ? "Printer is not printing" : "Printer is not paused");
      }
      case "cancel":
        if (this.#state !== "PRINTING" && this.#state !== "PAUSED") {
          throw new ConflictError("Printer is neither printing nor paused");
        }
        this.#setState("CANCELLING");
        this.#printed = 0;
        return this.#setState("OPERATIONAL");
      default:
        throw new UsageError(`Unknown job command '${command}'`);
    }
  }

  /** Forces a state (for tests and demos, e.g. ERROR). */
  setState(state: PrinterState): void {
    this.#setState(state);
  }

  /** Progress of the current job. */
  jobStatus(): JobStatus {
    const active = this.#state === "PRINTING" || this.#state === "PAUSED";
    return {
      state: this.#state,
      printTime: active ? this.#printed : null,
      printTimeLeft: active ? this.#jobSeconds - this.#printed : null,
      completion: active ? Math.round((this.#printed / this.#jobSeconds) * 1000) / 10 : null,
    };
  }

  #setState(state: PrinterState): void {
    const previous = this.#state;
    if (previous === state) return;
    this.#state = state;
    this.#emit({ type: "state", state, previous });
  }

  #emit(event: PrinterEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One failing subscriber never blocks the others.
      }
    }
  }
}
