/**
 * The Temperature ETA plugin's calculator driven by the Marlin simulator's heater physics
 * (`tests/doubles/marlin_physics.ts`), the way the service drives it: a reading every `1/hz` s
 * (noise σ 0.3 °C unless told, two decimals like Marlin's `T:`), a compute every
 * `calculation_interval`, publications throttled by `update_interval`, the history cleaned every
 * `cleanup_interval`. The truth is the physics, not the estimator's model: the time left is
 * counted until the noise-free reading is within the threshold of the goal. Shared by the ETA
 * accuracy tests and `perf/eta_accuracy.ts`.
 *
 * @module
 */
import { EtaCalculator } from "../../../plugins/temp_eta/calculator.ts";
import type { TempEtaSettings } from "../../../plugins/temp_eta/schema.ts";
import type { HeaterStatus } from "../../../plugins/temp_eta/status.ts";
import {
  BangBang,
  BED,
  bedPid,
  CHAMBER,
  type Controller,
  Heater,
  HOTEND,
  Pid,
  type ThermalBody,
} from "../../doubles/marlin_physics.ts";

/** A heater of the simulator: its name for the plugin, body, controller and working target. */
export interface HeaterKind {
  label: string;
  /** The plugin's heater name (decides the cooling target). */
  heater: "tool0" | "bed" | "chamber";
  body: ThermalBody;
  controller: () => Controller;
  target: number;
  /** Seconds the heater holds its target before it is switched off (cooling runs). */
  soak: number;
}

/** Every heater kind of the simulator. */
export const HEATER_KINDS: readonly HeaterKind[] = [
  {
    label: "hot end PID",
    heater: "tool0",
    body: HOTEND,
    controller: () => new Pid(),
    target: 210,
    soak: 300,
  },
  {
    label: "bed bang-bang",
    heater: "bed",
    body: BED,
    controller: () => new BangBang(),
    target: 60,
    soak: 600,
  },
  { label: "bed PID", heater: "bed", body: BED, controller: bedPid, target: 60, soak: 600 },
  {
    label: "chamber",
    heater: "chamber",
    body: CHAMBER,
    controller: () => new BangBang(),
    target: 40,
    soak: 1500,
  },
];

/** The ambient temperature of every run, °C. */
export const AMBIENT = 20;

/** One publication of the heater. */
export interface Published {
  /** Seconds since the run started (the target set, or the heater switched off). */
  t: number;
  state: HeaterStatus["state"];
  eta: number | null;
  /** The noise-free reading at that moment. */
  sensed: number;
  /** A state change published at this moment (the alerts fire on these). */
  changed: boolean;
}

/** A finished run. */
export interface Run {
  published: Published[];
  /** Seconds until the noise-free reading was within the threshold of the goal (or Infinity). */
  reached: number;
  /** The goal the run was heading for (target or cooling target). */
  goal: number;
  heating: boolean;
}

/** Options of {@linkcode runTrace}. */
export interface TraceOptions {
  seed: number;
  direction: "heating" | "cooling";
  /** Readings per second. @default 1 */
  hz?: number;
  /** Noise σ of a reading, °C. @default 0.3 */
  sigma?: number;
  /** Heater power as a share of the body's (a weak heater settles short). @default 1 */
  powerShare?: number;
  /** Longest run, s; the run also ends a little after the heater arrived. @default 2400 */
  limit?: number;
  /** Keep running after arrival until `limit`. @default false */
  full?: boolean;
}

/** The cooling target of a heater kind under `s`. */
export function coolingGoalOf(kind: HeaterKind, s: TempEtaSettings): number {
  return kind.heater === "tool0"
    ? s.cooling_target_tool
    : kind.heater === "bed"
    ? s.cooling_target_bed
    : s.cooling_target_chamber;
}

/** Runs one heater kind through the plugin's calculator with `settings`. */
export function runTrace(kind: HeaterKind, settings: TempEtaSettings, o: TraceOptions): Run {
  const { hz = 1, sigma = 0.3, powerShare = 1, limit = 2400, full = false } = o;
  const body = { ...kind.body, noise: sigma, power: kind.body.power * powerShare };
  const heater = new Heater(body, kind.controller(), AMBIENT, o.seed);
  const heating = o.direction === "heating";
  if (!heating) {
    heater.target = kind.target;
    heater.advance(kind.soak);
  }
  heater.target = heating ? kind.target : 0;
  const goal = heating ? kind.target : coolingGoalOf(kind, settings);
  const threshold = heating ? settings.heating_threshold : settings.cooling_threshold;
  const arrivedAt = (x: number) => heating ? x >= goal - threshold : x <= goal + threshold;
  const calc = new EtaCalculator(settings);
  const interval = settings.calculation_interval;
  const published: Published[] = [];
  let reached = Infinity, nextSample = 0, cleanAt = settings.cleanup_interval;
  const step = 1 / hz;
  for (let t = 0; t <= limit; t += interval) {
    while (nextSample <= t + 1e-9) {
      if (reached === Infinity && arrivedAt(heater.sensed)) reached = nextSample;
      const actual = Math.round(heater.reading * 100) / 100;
      calc.addReading(kind.heater, { actual, target: heating ? kind.target : 0 }, nextSample);
      heater.advance(step);
      nextSample += step;
    }
    if (t >= cleanAt) {
      calc.cleanup();
      cleanAt = t + settings.cleanup_interval;
    }
    const { due, changes } = calc.tick(t * 1000);
    for (const s of due) {
      const changed = changes.some((c) => c.heater === s.heater);
      published.push({ t, state: s.state, eta: s.eta_seconds, sensed: heater.sensed, changed });
    }
    if (!full && reached !== Infinity && t > reached + 60) break;
  }
  return { published, reached, goal, heating };
}

/** The p-quantile of sorted values (nearest rank). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))]!;
}

/**
 * The errors |ETA − time left| / time left in % of every ETA published from `after` s on while
 * the heater had not arrived, and how many such publications showed none.
 */
export function errorsOf(run: Run, after = 30): { errors: number[]; missing: number } {
  const errors: number[] = [];
  let missing = 0;
  for (const p of run.published) {
    const left = run.reached - p.t;
    if (p.t < after || !(left > 0) || !Number.isFinite(left)) continue;
    if (p.eta === null) missing++;
    else errors.push((Math.abs(p.eta - left) / left) * 100);
  }
  return { errors, missing };
}

/**
 * The longest stretch (s) over which the published ETA went down by less than a second while
 * the noise-free reading moved by more than `noise` °C (a display that froze while the heater
 * moved). Only stretches of consecutive shown ETAs count.
 */
export function longestFreeze(run: Run, noise = 0.3): number {
  const ps = run.published;
  let longest = 0;
  for (let i = 0; i < ps.length; i++) {
    const from = ps[i]!;
    if (from.eta === null || from.eta < 2) continue;
    for (let j = i + 1; j < ps.length; j++) {
      const to = ps[j]!;
      if (to.eta === null || to.eta <= from.eta - 1) break;
      if (Math.abs(to.sensed - from.sensed) > noise) longest = Math.max(longest, to.t - from.t);
    }
  }
  return longest;
}
