/**
 * Decides one heater's state, ETA and progress from its reading, history and the settings. Pure.
 *
 * @module
 */
import type { HeaterReading } from "../../lib/host/plugin.ts";
import type { TempEtaSettings } from "./schema.ts";
import { type Estimate, estimateCooling, estimateHeating, type Sample } from "./estimate.ts";
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

function fromEstimate(
  base: Omit<Classified, "state" | "eta_seconds" | "rate" | "method">,
  kind: EtaKind,
  e: Estimate,
  s: TempEtaSettings,
): Classified {
  const moving = e.rate === null ? null : kind === "heating" ? e.rate : -e.rate;
  const common = { ...base, rate: e.rate, method: null, eta_seconds: null };
  if (moving === null) return { ...common, state: "calculating" };
  if (moving < s.min_rate) return { ...common, state: "stalled" };
  if (e.eta === null || e.eta > s.max_eta) return { ...common, state: "calculating" };
  return { ...common, state: kind, eta_seconds: e.eta, method: e.method };
}

/**
 * Classifies a heater. A heater with a target > 0 is heating towards it; a heater that is off is
 * cooling towards its cooling target. The threshold is the distance at which the ETA display
 * starts: closer than it, the heater is `at_target` / `cooled_down`.
 */
export function classify(
  heater: string,
  reading: HeaterReading,
  samples: readonly Sample[],
  startActual: number,
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
  const options = {
    algorithm: s.algorithm,
    linearWindow: s.linear_window,
    exponentialWindow: s.exponential_window,
    maxTau: s.exponential_max_tau,
  };
  if (target !== null) {
    if (!s.heating_enabled) return { ...nothing, state: "idle" };
    if (target - reading.actual <= s.heating_threshold) return { ...nothing, state: "at_target" };
    const e = estimateHeating(samples, target, { ...options, threshold: s.heating_threshold });
    const withKind = { ...base, eta_kind: "heating" as const };
    const out = fromEstimate(withKind, "heating", e, s);
    return { ...out, progress: progressOf(startActual, reading.actual, target) };
  }
  if (coolingTarget === null) return { ...nothing, state: "idle" };
  if (reading.actual - coolingTarget <= s.cooling_threshold) {
    return { ...nothing, state: "cooled_down" };
  }
  const e = estimateCooling(samples, coolingTarget, { ...options, threshold: s.cooling_threshold });
  const out = fromEstimate({ ...base, eta_kind: "cooling" }, "cooling", e, s);
  return { ...out, progress: progressOf(startActual, reading.actual, coolingTarget) };
}
