/**
 * The built-in virtual printer, the port `VIRTUAL`: a driver that answers G-code as a small
 * Marlin would — heater targets (`M104`/`M109`, `M140`/`M190`, `M141`/`M191`, the waiting forms
 * until the heater is there), `M105` and `M155` reports, `M115` — over heaters tool0, bed and
 * chamber that follow the first-order model of `./thermal.ts`, on a clock that can run faster
 * than real time (demos, tests of the plugins). Moves take a moment of simulated time each, so
 * a printed file progresses as a real print does.
 *
 * @module
 */
import { type Clock, systemClock } from "../../clock.ts";
import type { DriverEvent, DriverState, PrinterDriver } from "../driver.ts";
import { PrinterDisconnectedError } from "../marlin/mod.ts";
import type { Temperatures } from "../marlin/mod.ts";
import { AMBIENT_C, HEATERS, type HeaterState, stepHeater } from "./thermal.ts";

/** Options of {@linkcode VirtualDriver}. */
export interface VirtualDriverOptions {
  /** Timers and time stamps. @default systemClock */
  clock?: Clock;
  /** Simulated seconds per real second. @default 1 */
  speed?: number;
  /** Simulated milliseconds a move (`G0`–`G3`) takes. @default 50 */
  moveMs?: number;
}

const FIRMWARE = {
  name: "localbench virtual printer",
  capabilities: { AUTOREPORT_TEMP: true, EMERGENCY_PARSER: true, SDCARD: false },
};

/** The virtual printer as a {@linkcode PrinterDriver}. */
export class VirtualDriver implements PrinterDriver {
  readonly #clock: Clock;
  readonly #speed: number;
  readonly #moveMs: number;
  readonly #heaters = new Map<string, HeaterState>();
  readonly #listeners = new Set<(event: DriverEvent) => void>();
  /** Waits of `M109`/`M190`/`M191` and moves, resolved by the simulation. */
  readonly #waits = new Set<{ done(): boolean; resolve(): void; reject(e: Error): void }>();
  #state: DriverState = "connecting";
  #simTime: number;
  #reportEvery = 0;
  #sinceReport = 0;
  #stopTick: (() => void) | null = null;

  constructor(options: VirtualDriverOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#speed = options.speed ?? 1;
    if (!(this.#speed > 0)) throw new RangeError("Cannot create printer: 'speed' must be positive");
    this.#moveMs = options.moveMs ?? 50;
    this.#simTime = this.#clock.now();
    for (const name of Object.keys(HEATERS)) {
      this.#heaters.set(name, { actual: AMBIENT_C, target: 0 });
    }
  }

  get state(): DriverState {
    return this.#state;
  }

  get firmware(): { name: string | null; capabilities: Record<string, boolean> } | null {
    return this.#state === "connecting" ? null : FIRMWARE;
  }

  connect(): Promise<unknown> {
    if (this.#state !== "connecting") return Promise.resolve(FIRMWARE);
    // One tick is 100 ms of simulated time.
    this.#stopTick = this.#clock.setInterval(() => this.#tick(100), Math.max(1, 100 / this.#speed));
    this.#setState("operational");
    this.#emit({ type: "firmware", firmware: { ...FIRMWARE, fields: {} } });
    this.#emit({ type: "temperatures", temperatures: this.#temperatures(), time: this.#simTime });
    return Promise.resolve(FIRMWARE);
  }

  async send(command: string): Promise<string[]> {
    if (this.#state === "closed") throw new PrinterDisconnectedError("The virtual printer is off");
    const text = command.replace(/;.*$/, "").trim();
    this.#emit({ type: "line", direction: "sent", text });
    const answer = await this.#answer(text);
    for (const line of answer) this.#emit({ type: "line", direction: "received", text: line });
    return answer;
  }

  fakeAck(): void {}

  subscribe(listener: (event: DriverEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): Promise<void> {
    if (this.#state === "closed") return Promise.resolve();
    this.#stopTick?.();
    for (const w of this.#waits) {
      w.reject(new PrinterDisconnectedError("The virtual printer is off"));
    }
    this.#waits.clear();
    this.#setState("closed");
    return Promise.resolve();
  }

  async #answer(text: string): Promise<string[]> {
    const [code = "", ...args] = text.toUpperCase().split(/\s+/);
    const value = (letter: string) => {
      const arg = args.find((a) => a.startsWith(letter));
      return arg === undefined ? undefined : Number(arg.slice(1));
    };
    switch (code) {
      case "":
        return ["ok"];
      case "M104":
      case "M109":
        return await this.#target(`tool${value("T") ?? 0}`, value("S"), code === "M109");
      case "M140":
      case "M190":
        return await this.#target("bed", value("S"), code === "M190");
      case "M141":
      case "M191":
        return await this.#target("chamber", value("S"), code === "M191");
      case "M105":
        return [`ok ${this.#reportText()}`];
      case "M155":
        this.#reportEvery = (value("S") ?? 0) * 1000;
        return ["ok"];
      case "M115":
        return [
          `FIRMWARE_NAME:${FIRMWARE.name} EXTRUDER_COUNT:1`,
          ...Object.entries(FIRMWARE.capabilities).map(([k, v]) => `Cap:${k}:${v ? 1 : 0}`),
          "ok",
        ];
      case "G0":
      case "G1":
      case "G2":
      case "G3":
      case "G28":
        await this.#waitSim(code === "G28" ? 20 * this.#moveMs : this.#moveMs);
        return ["ok"];
      default:
        return /^[GMT]\d+$/.test(code) ? ["ok"] : [`echo:Unknown command: "${text}"`, "ok"];
    }
  }

  async #target(heater: string, celsius: number | undefined, wait: boolean): Promise<string[]> {
    const h = this.#heaters.get(heater);
    const params = HEATERS[heater];
    if (!h || !params) return [`echo:Invalid extruder ${heater}`, "ok"];
    if (celsius === undefined || !Number.isFinite(celsius) || celsius < 0) return ["ok"];
    h.target = Math.min(celsius, params.maxTemp);
    if (wait && h.target > 0) {
      const goal = h.target;
      await this.#until(() => Math.abs(this.#heaters.get(heater)!.actual - goal) < 1);
    }
    return ["ok"];
  }

  #waitSim(ms: number): Promise<void> {
    const until = this.#simTime + ms;
    return this.#until(() => this.#simTime >= until);
  }

  #until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    this.#waits.add({ done, resolve, reject });
    return promise;
  }

  #tick(ms: number): void {
    for (const [name, h] of this.#heaters) {
      this.#heaters.set(name, stepHeater(h, ms / 1000, HEATERS[name]!));
    }
    this.#simTime += ms;
    for (const w of [...this.#waits]) {
      if (!w.done()) continue;
      this.#waits.delete(w);
      w.resolve();
    }
    this.#sinceReport += ms;
    // Reports every `M155` interval, and every simulated second without one (for the host).
    if (this.#sinceReport >= (this.#reportEvery || 1000)) {
      this.#sinceReport = 0;
      this.#emit({ type: "temperatures", temperatures: this.#temperatures(), time: this.#simTime });
    }
  }

  #temperatures(): Temperatures {
    const out: Temperatures = {};
    for (const [name, h] of this.#heaters) {
      out[name] = { actual: Math.round(h.actual * 100) / 100, target: h.target, power: null };
    }
    return out;
  }

  #reportText(): string {
    const t = this.#temperatures();
    const f = (r: { actual: number; target: number | null }) =>
      `${r.actual.toFixed(2)} /${r.target}`;
    return `T:${f(t.tool0!)} B:${f(t.bed!)} C:${f(t.chamber!)}`;
  }

  #setState(state: DriverState): void {
    const previous = this.#state;
    if (previous === state) return;
    this.#state = state;
    this.#emit({ type: "state", state, previous, message: null });
  }

  #emit(event: DriverEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One failing listener never stops the others.
      }
    }
  }
}
