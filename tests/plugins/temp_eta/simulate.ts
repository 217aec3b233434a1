/**
 * Runs a simulated heater through the plugin's calculator the way the service does (a noisy,
 * rounded reading every `1/hz` s, a compute every `calculation_interval`, publications throttled
 * by `update_interval`) and measures what a user saw: the published ETAs against the true time
 * left until the heater is within the threshold of its target. Shared by the ETA tests and
 * `perf/eta_accuracy.ts`.
 *
 * @module
 */
import { EtaCalculator } from "../../../plugins/temp_eta/calculator.ts";
import type { TempEtaSettings } from "../../../plugins/temp_eta/schema.ts";
import type { HeaterStatus } from "../../../plugins/temp_eta/status.ts";
import { sensor, type SimHeater } from "./heaters.ts";

/** One publication of the heater. */
export interface Published {
  /** Seconds since the target was set. */
  t: number;
  state: HeaterStatus["state"];
  eta: number | null;
  /** The true temperature at that moment. */
  temperature: number;
}

/** A finished run. */
export interface Run {
  published: Published[];
  /** Seconds until the true temperature was within the threshold of the target. */
  reached: number;
}

/** What is being measured: it takes readings and, when asked, publishes the heater's state. */
export interface Subject {
  read(t: number, actual: number): void;
  /** The publications due at `t` (s). */
  publish(t: number): Array<{ state: HeaterStatus["state"]; eta: number | null }>;
}

/**
 * The plugin's calculator with `settings`, heating `heater` to `target`; like the service, it
 * cleans the history every `cleanup_interval`.
 */
export function pluginSubject(heater: string, target: number, settings: TempEtaSettings): Subject {
  const calc = new EtaCalculator(settings);
  let cleanAt = settings.cleanup_interval;
  return {
    read: (t, actual) => calc.addReading(heater, { actual, target }, t),
    publish: (t) => {
      if (t >= cleanAt) {
        calc.cleanup();
        cleanAt = t + settings.cleanup_interval;
      }
      return calc.tick(t * 1000).due.map((s) => ({ state: s.state, eta: s.eta_seconds }));
    },
  };
}

/** Options of {@linkcode simulate}. */
export interface SimOptions {
  seed: number;
  /** Readings per second. @default 2 */
  hz?: number;
  /** Noise σ in °C. @default 0.3 */
  sigma?: number;
  /** Seconds between two publish calls (the plugin's `calculation_interval`). @default 0.5 */
  interval?: number;
  /** Distance to the target that counts as reached, °C. @default 1 */
  threshold?: number;
  /** Longest run, s. @default 1800 */
  limit?: number;
}

/** Heats `heater` from its start, `subject` watching, until the subject says `at_target`. */
export function simulate(heater: SimHeater, subject: Subject, o: SimOptions): Run {
  const { hz = 2, sigma = 0.3, interval = 0.5, threshold = 1, limit = 1800 } = o;
  const read = sensor(heater, o.seed, sigma);
  const goal = heater.target - threshold;
  const published: Published[] = [];
  let reached = Infinity, nextSample = 0, arrived = false;
  for (let t = 0; t <= limit && (!arrived || reached === Infinity); t += interval) {
    while (nextSample <= t + 1e-9) {
      if (reached === Infinity && heater.temperature >= goal) reached = nextSample;
      subject.read(nextSample, read());
      heater.step(1 / hz);
      nextSample += 1 / hz;
    }
    if (arrived) continue;
    for (const s of subject.publish(t)) {
      published.push({ t, state: s.state, eta: s.eta, temperature: heater.temperature });
      if (s.state === "at_target") arrived = true;
    }
  }
  return { published, reached };
}

/** {@linkcode simulate} with the plugin and `settings`. */
export function simulatePlugin(heater: SimHeater, settings: TempEtaSettings, o: SimOptions): Run {
  const subject = pluginSubject(heater.name, heater.target, settings);
  return simulate(heater, subject, {
    interval: settings.calculation_interval,
    threshold: settings.heating_threshold,
    ...o,
  });
}

/** What the issue asks of a run, measured. */
export interface RunMetrics {
  /** Median and 90th percentile of |ETA − truth| / truth in %, from `after` s to arrival. */
  median: number;
  p90: number;
  /** Publications from `after` s on that showed no ETA although the heater had not arrived. */
  missing: number;
  /** The largest increase of the published ETA between two publications, s. */
  maxIncrease: number;
  /** Publications saying `stalled` while the true temperature was still rising. */
  stalledWhileRising: number;
  /** The last ETA published before `at_target`. */
  lastEta: number | null;
}

/** The p-quantile of sorted values (nearest rank). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))]!;
}

/** Measures a run from `after` seconds on. */
export function metricsOf(run: Run, after = 30): RunMetrics {
  const errors: number[] = [];
  let missing = 0, maxIncrease = 0, stalledWhileRising = 0, lastEta: number | null = null;
  let previous: Published | null = null;
  for (const p of run.published) {
    if (p.state === "stalled" && previous && p.temperature > previous.temperature) {
      stalledWhileRising++;
    }
    if (p.eta !== null && previous?.eta !== null && previous?.eta !== undefined) {
      maxIncrease = Math.max(maxIncrease, p.eta - previous.eta);
    }
    if (p.state !== "at_target") lastEta = p.eta;
    const left = run.reached - p.t;
    if (p.t >= after && left > 0 && p.state !== "at_target") {
      if (p.eta === null) missing++;
      else errors.push((Math.abs(p.eta - left) / left) * 100);
    }
    previous = p;
  }
  errors.sort((a, b) => a - b);
  return {
    median: quantile(errors, 0.5),
    p90: quantile(errors, 0.9),
    missing,
    maxIncrease,
    stalledWhileRising,
    lastEta,
  };
}
