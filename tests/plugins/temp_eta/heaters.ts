/**
 * Simulated heaters for the calculator's tests: a first-order heater (the virtual printer's), and
 * beds with a slow second thermal mass (a long tail). The heaters the accuracy goals are measured
 * on are the Marlin simulator's (`marlin_traces.ts`, `perf/eta_accuracy.ts`). Each is read through a sensor with seeded Gaussian noise and 0.1 °C resolution.
 * Integration is explicit Euler at 50 ms, plenty for time constants of seconds and more.
 *
 * @module
 */

/** A simulated heater: its true temperature, advanced in steps. */
export interface SimHeater {
  readonly name: string;
  readonly target: number;
  /** The true (noise-free) temperature, °C. */
  readonly temperature: number;
  /** Advances the heater by `seconds`. */
  step(seconds: number): void;
}

const DT = 0.05;
const AMBIENT = 22;

/** A heater from its sensor reading and its Euler step of `dt` seconds. */
function simHeater(
  name: string,
  target: number,
  read: () => number,
  advance: (dt: number) => void,
): SimHeater {
  return {
    name,
    target,
    get temperature() {
      return read();
    },
    step: (seconds) => {
      for (let left = seconds; left > 1e-9; left -= DT) advance(Math.min(DT, left));
    },
  };
}

/** A first-order heater moving towards its target with time constant `tau` (the virtual printer). */
export function firstOrderHeater(name: string, target: number, tau: number): SimHeater {
  let t = AMBIENT;
  return simHeater(name, target, () => t, (dt) => (t += ((target - t) * dt) / tau));
}

/**
 * A bed plate (where the sensor sits) over a slow mass (glass, frame) that draws heat from it;
 * `power(plate, dt)` is the heater's output, 1 = full power.
 */
function plateAndMass(
  name: string,
  target: number,
  power: (plate: number, dt: number) => number,
): SimHeater {
  let plate = AMBIENT, mass = AMBIENT;
  return simHeater(name, target, () => plate, (dt) => {
    const u = power(plate, dt);
    const flow = 0.02 * (plate - mass);
    plate += (u - flow - 0.005 * (plate - AMBIENT)) * dt;
    mass += (0.006 * (plate - mass) - 0.002 * (mass - AMBIENT)) * dt;
  });
}

/**
 * A bed with a long tail: the plate (where the sensor sits) heats a slow mass under it (glass,
 * frame), so its rate falls fast at first; full power until 10 °C below the target, then P+I
 * (Kp 0.15 /°C, Ki `ki` /(°C·s)). With the default Ki 0.001 the proportional part droops a few
 * degrees short and the integral creeps over the last ones: 22 → 79 °C takes about 5 minutes, the
 * last 2 °C 1.5 of them. Ki 0.002 brings it in at a steady rate instead (3.5 minutes) — the same
 * curve for the first 175 s, so no estimator can tell the two apart before then.
 */
export function longTailBed(name = "bed", target = 80, ki = 0.001): SimHeater {
  let integral = 0;
  return plateAndMass(name, target, (plate, dt) => {
    const error = target - plate;
    if (error > 10) return 1;
    integral = Math.max(0, integral + error * dt);
    return Math.min(1, Math.max(0, 0.15 * error + ki * integral));
  });
}

/**
 * An underpowered bed: the same plate and mass at 70 % of the power, switched fully on until
 * the target (bang-bang). Full power only just reaches ~92 °C, so towards an 80 °C target the
 * rate never falls to zero but stays low for minutes (22 → 79 °C in about 9 minutes).
 */
export function weakBed(name = "bed", target = 80): SimHeater {
  return plateAndMass(name, target, (plate) => (plate < target ? 0.7 : 0));
}

/** Samples every `step` seconds from 0 to `seconds` of a curve `f(t)` (noise-free). */
export function curve(
  seconds: number,
  step: number,
  f: (t: number) => number,
): Array<{ t: number; actual: number }> {
  const out: Array<{ t: number; actual: number }> = [];
  for (let t = 0; t <= seconds + 1e-9; t += step) out.push({ t, actual: f(t) });
  return out;
}

/** A deterministic standard normal source (Box–Muller over a 32-bit LCG). */
export function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** A sensor reading of `heater` with noise `sigma` (°C), rounded to `resolution`. */
export function sensor(heater: SimHeater, seed: number, sigma = 0.3, resolution = 0.1) {
  const n = gaussian(seed);
  return (): number => Math.round((heater.temperature + sigma * n()) / resolution) * resolution;
}

/**
 * A bed converging on its target with two time constants: `share1` of the rise with `tau1`, the
 * rest with the slow `tau2` — a tail that does not show in the first minutes at all.
 */
export function twoTauBed(
  name = "bed",
  target = 80,
  tau1 = 50,
  tau2 = 250,
  share1 = 0.8,
): SimHeater {
  let t = 0;
  const rise = target - AMBIENT;
  return {
    name,
    target,
    get temperature() {
      return target - rise * (share1 * Math.exp(-t / tau1) + (1 - share1) * Math.exp(-t / tau2));
    },
    step: (seconds) => void (t += seconds),
  };
}
