/**
 * Decides one heater's state, ETA and progress from its reading, its segment's samples and
 * estimator, and the settings.
 *
 * "Stalled": the heater settles short of its goal (its asymptote from minutes of bucket means,
 * `settle.ts`), or the long trend over the history towards the goal is below `min_rate` AND, even
 * one standard deviation higher, too slow to cover the remaining distance within `max_eta` (or not
 * positive). A heater creeping over its last degrees at 0.02 °C/s is still arriving; one holding
 * 20 °C short of its target is not. "Reached" needs the fit over `linear_window` and the fit over
 * the whole history inside the threshold by two standard deviations, and is latched by the tracker.
 *
 * @module
 */
import type { HeaterReading } from "../../lib/host/mod.ts";
import type { TempEtaSettings } from "./schema.ts";
import { type Sample, trendOf } from "./estimate.ts";
import type { SegmentEstimate, SegmentTracker } from "./tracker.ts";
import type { EtaKind, HeaterStatus } from "./status.ts";

/** The cooling target of a heater: `cooling_target_tool` for every `toolN`, else by name. */
export function coolingTargetOf(heater: string, s: TempEtaSettings): number | null {
  if (/^tool\d+$/.test(heater)) return s.cooling_target_tool;
  if (heater === "bed") return s.cooling_target_bed;
  if (heater === "chamber") return s.cooling_target_chamber;
  return null;
}

function progressOf(start: number, actual: number, goal: number): number | null {
  const span = goal - start;
  if (Math.abs(span) < 1e-9) return null;
  return Math.min(100, Math.max(0, ((actual - start) / span) * 100));
}

type Classified = Omit<HeaterStatus, "timestamp">;

/** The rate towards the goal is taken this many standard deviations higher before it counts. */
export const STALL_MARGIN = 1;

/**
 * True when the heater is not getting to its goal: the long trend's rate towards it is below
 * `min_rate` and, even {@linkcode STALL_MARGIN} standard deviations higher, would need more than
 * `max_eta` for the remaining `distance` (°C). The margin keeps the noise of a nearly flat trend
 * from calling a heater that creeps over its last few tenths of a degree stuck.
 */
export function isStalled(
  samples: readonly Sample[],
  distance: number,
  sign: 1 | -1,
  s: Pick<TempEtaSettings, "min_rate" | "max_eta" | "linear_window">,
): boolean {
  const long = trendOf(samples);
  if (!long || long.span < s.linear_window) return false;
  const toward = sign * long.rate;
  if (toward >= s.min_rate) return false;
  const upper = toward + STALL_MARGIN * Math.sqrt(long.variance);
  return upper <= 0 || distance / upper > s.max_eta;
}

function fromEstimate(
  base: Omit<Classified, "state" | "eta_seconds" | "rate" | "method">,
  kind: EtaKind,
  e: SegmentEstimate,
  stalled: boolean,
  s: TempEtaSettings,
): Classified {
  const common = { ...base, rate: e.rate, method: null, eta_seconds: null };
  if (e.rate === null) return { ...common, state: "calculating" };
  if (stalled) return { ...common, state: "stalled" };
  if (e.eta === null || e.eta > s.max_eta) return { ...common, state: "calculating" };
  return { ...common, state: kind, eta_seconds: e.eta, method: e.method };
}

/**
 * Classifies a heater. A heater with a target > 0 is heating towards it; a heater that is off is
 * cooling towards its cooling target. `tracker` is the estimator of the heater's current segment
 * (its target or cooling target); the threshold is the distance at which the ETA display ends.
 */
export function classify(
  heater: string,
  reading: HeaterReading,
  samples: readonly Sample[],
  tracker: SegmentTracker | null,
  s: TempEtaSettings,
): Classified {
  const target = reading.target !== null && reading.target > 0 ? reading.target : null;
  const coolingTarget = s.cooling_enabled ? coolingTargetOf(heater, s) : null;
  const base = {
    heater,
    target,
    actual: reading.actual,
    cooling_target: coolingTarget,
    progress: null,
    eta_kind: null,
  };
  const nothing = { ...base, eta_seconds: null, rate: null, method: null };
  const heating = target !== null;
  if (heating ? !s.heating_enabled : coolingTarget === null) return { ...nothing, state: "idle" };
  if (!tracker) return { ...nothing, state: "calculating" };
  const threshold = heating ? s.heating_threshold : s.cooling_threshold;
  const e = tracker.estimate(samples, {
    algorithm: s.algorithm,
    linearWindow: s.linear_window,
    exponentialWindow: s.exponential_window,
    maxTau: s.exponential_max_tau,
    threshold,
  });
  // Arrival needs the last seconds and the whole history to agree: a heater settling a little
  // outside the threshold reads inside it now and then on the short fit alone.
  const long = trendOf(samples);
  const fits = [{ now: e.now ?? reading.actual, sd: e.nowSd ?? 0 }];
  if (long) fits.push({ now: long.now, sd: Math.sqrt(long.nowVariance) });
  if (tracker.arrived(fits, threshold)) {
    return { ...nothing, state: heating ? "at_target" : "cooled_down" };
  }
  const kind = heating ? "heating" : "cooling";
  const sign = heating ? 1 : -1;
  const distance = sign * (tracker.target - (e.now ?? reading.actual)) - threshold;
  const goal = tracker.target - sign * threshold;
  // The history's minute of readings gives the steadier noise estimate.
  const short = long !== null &&
    tracker.settlesShort(goal, long.noise, (long.count - 1) / Math.max(long.span, 1e-9));
  const stalled = short || isStalled(samples, distance, sign, s);
  const out = fromEstimate({ ...base, eta_kind: kind }, kind, e, stalled, s);
  return { ...out, progress: progressOf(tracker.start, reading.actual, tracker.target) };
}
