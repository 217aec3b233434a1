/**
 * The temperature rule with hysteresis, as pure functions. A rule becomes active when the reading
 * reaches the threshold and stays active while the reading is above `threshold − hysteresis`
 * (with threshold 40 and hysteresis 2: active from 40.0, still active at 38.5, released at 38.0).
 * A missing reading keeps the previous latch.
 *
 * @module
 */
import type { HeaterReading } from "../../lib/host/mod.ts";
import type { TempRule, TempSensor } from "./channel_config.ts";

/** The heater a sensor reads: `bed`, `tool0` (the first tool only) or `chamber`. */
export const SENSOR_HEATERS: Readonly<Record<TempSensor, string>> = {
  bed: "bed",
  tool: "tool0",
  chamber: "chamber",
};

/** The actual temperature of a sensor, or `undefined` when the printer does not report it. */
export function sensorReading(
  sensor: TempSensor,
  temperatures: Readonly<Record<string, HeaterReading>>,
): number | undefined {
  const actual = temperatures[SENSOR_HEATERS[sensor]]?.actual;
  return typeof actual === "number" && Number.isFinite(actual) ? actual : undefined;
}

/** The next latch state of a rule given a reading (`undefined` keeps the latch). */
export function nextLatch(
  threshold: number,
  hysteresis: number,
  reading: number | undefined,
  active: boolean,
): boolean {
  if (reading === undefined) return active;
  return active ? reading > threshold - hysteresis : reading >= threshold;
}

/** What an enabled rule asks for: its `above` action while active, no opinion otherwise. */
export function tempOpinion(rule: TempRule, active: boolean): boolean | undefined {
  if (!rule.enabled || !active) return undefined;
  return rule.above === "on";
}
