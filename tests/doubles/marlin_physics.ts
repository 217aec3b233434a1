/**
 * Heaters of the Marlin simulator (`marlin_sim.ts`) that follow physics: a lumped thermal mass
 * heated by a heater and losing heat to ambient air, read through a lagging, noisy thermistor,
 * and driven by Marlin's controllers: PID for a hot end, bang-bang for a bed and a chamber
 * (Marlin's defaults without `PIDTEMPBED`/`PIDTEMPCHAMBER`).
 *
 * - Body: `capacity · dT/dt = power · duty − (loss + draught) · (T − ambient)`. A heater too weak
 *   for its target (or in a draught) settles short at `ambient + power / (loss + draught)`.
 * - Sensor: `dS/dt = (T − S) / sensorLag`; a reading is `S` plus seeded Gaussian noise, so two
 *   runs with the same seed read the same temperatures.
 * - PID (Marlin's shape, in counts of 0..255 like `DEFAULT_Kp 22.2 / Ki 1.08 / Kd 114`): full power
 *   more than `functionalRange` below target, off more than that above it, else P + I (clamped so
 *   `I ≤ 255`) + D on the measurement, smoothed with `PID_K1` 0.95.
 * - A bed under PID (`PIDTEMPBED`): {@linkcode bedPid}, gains as an autotune gives for `BED`.
 * - Bang-bang: on below `target − hysteresis`, off above `target + hysteresis`, decided every
 *   `interval` seconds (Marlin: `BED_CHECK_INTERVAL` 5 s, hysteresis 0 unless `BED_LIMIT_SWITCHING`).
 *
 * @module
 */

/** A seeded source of numbers in [0, 1) (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal number from a uniform source (Box–Muller). */
function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** The physical side of a heater. */
export interface ThermalBody {
  /** Heat capacity in J/K. */
  capacity: number;
  /** Heater power at full duty, in W. */
  power: number;
  /** Heat lost to ambient air, in W/K. */
  loss: number;
  /** Time constant of the thermistor following the body, in s. */
  sensorLag: number;
  /** Standard deviation of a reading, in °C. */
  noise: number;
}

/** Decides a heater's duty (0..1) from its target and reading, once per physics step. */
export interface Controller {
  duty(target: number, reading: number, dt: number): number;
}

/** Marlin's hot-end PID, gains in counts (0..255) per °C, per °C·s and °C/s. */
export class Pid implements Controller {
  #iState = 0;
  #dTerm = 0;
  #last: number | null = null;
  #outside = true;

  constructor(
    readonly kp = 22.2,
    readonly ki = 1.08,
    readonly kd = 114,
    readonly functionalRange = 10,
  ) {}

  duty(target: number, reading: number, dt: number): number {
    const error = target - reading;
    const last = this.#last ?? reading;
    this.#last = reading;
    if (target <= 0 || error < -this.functionalRange || error > this.functionalRange) {
      this.#outside = true;
      return target > 0 && error > 0 ? 1 : 0;
    }
    if (this.#outside) {
      this.#outside = false;
      this.#iState = 0;
      this.#dTerm = 0;
    }
    this.#iState = Math.min(Math.max(this.#iState + error * dt, 0), 255 / this.ki);
    this.#dTerm += 0.05 * (this.kd * (last - reading) / dt - this.#dTerm);
    const out = this.kp * error + this.ki * this.#iState + this.#dTerm;
    return Math.min(Math.max(out, 0), 255) / 255;
  }
}

/**
 * A bed under Marlin's PID (`PIDTEMPBED`), with gains like `M303 E-1 S60` gives for {@linkcode BED}:
 * full power more than 10 °C below target, then braking to hold the target within a few tenths.
 */
export function bedPid(): Pid {
  return new Pid(462.1, 85.47, 624.59);
}

/** Marlin's bang-bang control of a bed or chamber. */
export class BangBang implements Controller {
  #on = false;
  #sinceCheck = Infinity;

  constructor(readonly interval = 5, readonly hysteresis = 0) {}

  duty(target: number, reading: number, dt: number): number {
    this.#sinceCheck += dt;
    if (this.#sinceCheck >= this.interval) {
      this.#sinceCheck = 0;
      if (target <= 0) this.#on = false;
      else if (this.hysteresis === 0) this.#on = reading < target;
      else if (reading <= target - this.hysteresis) this.#on = true;
      else if (reading >= target + this.hysteresis) this.#on = false;
    }
    return this.#on ? 1 : 0;
  }
}

/** One heater: body, sensor and controller, stepped in fixed time steps. */
export class Heater {
  /** Set temperature in °C; 0 is off. */
  target = 0;
  /** Extra heat loss in W/K (a fan or a draught), on top of the body's own loss. */
  draught = 0;
  #temp: number;
  #sensed: number;
  #reading: number;
  #duty = 0;
  readonly #random: () => number;

  constructor(
    readonly body: ThermalBody,
    readonly controller: Controller,
    public ambient: number,
    seed: number,
  ) {
    this.#temp = this.#sensed = this.#reading = ambient;
    this.#random = seededRandom(seed);
  }

  /** What the thermistor reads, noise included, in °C. */
  get reading(): number {
    return this.#reading;
  }

  /** What the thermistor reads without its noise, in °C (the body seen through the sensor's lag). */
  get sensed(): number {
    return this.#sensed;
  }

  /** The body's real temperature in °C (what a test compares against). */
  get temperature(): number {
    return this.#temp;
  }

  /** Heater power as Marlin reports it (`@:`/`B@:`): 0..127. */
  get power(): number {
    return Math.round(this.#duty * 127);
  }

  /** Advances `seconds` of time in steps of at most 0.1 s. */
  advance(seconds: number): void {
    for (let left = seconds; left > 1e-9; left -= 0.1) this.#step(Math.min(0.1, left));
  }

  #step(dt: number): void {
    const { capacity, power, loss, sensorLag, noise } = this.body;
    this.#duty = this.controller.duty(this.target, this.#reading, dt);
    const flow = power * this.#duty - (loss + this.draught) * (this.#temp - this.ambient);
    this.#temp += flow * dt / capacity;
    this.#sensed += (this.#temp - this.#sensed) * Math.min(1, dt / sensorLag);
    this.#reading = this.#sensed + noise * gaussian(this.#random);
  }
}

/** An E3D-V6-like hot end: 40 W, heats 20 → 200 °C in about a minute. */
export const HOTEND: ThermalBody = {
  capacity: 12,
  power: 40,
  loss: 0.065,
  sensorLag: 3,
  noise: 0.15,
};
/** A 220 × 220 aluminium bed: 220 W, 20 → 60 °C in about two minutes. */
export const BED: ThermalBody = { capacity: 500, power: 220, loss: 1.5, sensorLag: 5, noise: 0.1 };
/** An enclosure: 100 W into a large mass, tens of minutes to warm by 20 °C. */
export const CHAMBER: ThermalBody = {
  capacity: 5000,
  power: 100,
  loss: 2,
  sensorLag: 10,
  noise: 0.05,
};
