/**
 * Marlin's temperature report, as `M105`, `M155` auto-reports and blocking heat-ups print it:
 * `T:20.3 /0.0 B:19.2 /0.0 C:25.0 /0.0 T0:20.3 /0.0 T1:20.6 /0.0 @:0 B@:0 @0:0 @1:0`
 * (actual /target, heater power), or `T:44 E:0 B:45` (no targets; `E` is the heating tool).
 *
 * @module
 */

/** One heater's reading. */
export interface HeaterReport {
  /** Measured temperature in °C. */
  actual: number;
  /** Target in °C, null when the line gave none. */
  target: number | null;
  /** Heater power as the firmware prints it (0–127 or 0–255), null when not given. */
  power: number | null;
}

/** Heater name (`tool0`, `tool1` …, `bed`, `chamber`) → its reading. */
export type Temperatures = Record<string, HeaterReport>;

const FIELD = /(?:^|\s)([TBCE]\d*|[BC]?@\d*):\s*(-?\d+(?:\.\d+)?)(?:\s*\/\s*(-?\d+(?:\.\d+)?))?/g;

/** Whether `text` (`ok` removed) starts like a temperature report. */
export function isTemperatureReport(text: string): boolean {
  return /^\s*(?:T\d*|B|C):\s*-?\d/.test(text);
}

/**
 * The heaters of a temperature report. Other sensors (`P:` probe, `A:` ambient, `W:` wait) are
 * left out; a field that is not a number is skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTemperatures } from "./temperatures.ts";
 * assert.deepEqual(parseTemperatures("T:210.1 /210.0 B:60.0 /60.0 @:64 B@:127"), {
 *   tool0: { actual: 210.1, target: 210, power: 64 },
 *   bed: { actual: 60, target: 60, power: 127 },
 * });
 * ```
 */
export function parseTemperatures(text: string): Temperatures {
  const fields = new Map<string, { actual: number; target: number | null }>();
  for (const m of text.matchAll(FIELD)) {
    fields.set(m[1]!, { actual: Number(m[2]), target: m[3] === undefined ? null : Number(m[3]) });
  }
  const numbered = [...fields.keys()].filter((key) => /^T\d+$/.test(key));
  const extruder = fields.get("E")?.actual ?? 0;
  const active = `tool${Number.isSafeInteger(extruder) && extruder >= 0 ? extruder : 0}`;
  const out: Temperatures = {};
  const heater = (name: string, key: string, powerKey: string) => {
    const field = fields.get(key);
    if (field) out[name] = { ...field, power: fields.get(powerKey)?.actual ?? null };
  };
  if (numbered.length === 0) heater(active, "T", "@");
  for (const key of numbered) {
    const n = key.slice(1);
    heater(`tool${n}`, key, fields.has(`@${n}`) ? `@${n}` : n === "0" ? "@" : "");
  }
  heater("bed", "B", "B@");
  heater("chamber", "C", "C@");
  return out;
}
