/**
 * The first-order thermal model of the virtual printer, as pure functions: a heater moves
 * toward its (clamped) target, or toward ambient when off, with time constant `tau`.
 *
 * @module
 */

/** Physical parameters of one heater. */
export interface HeaterParams {
  /** Time constant in seconds (63 % of the way after `tau`). */
  tau: number;
  /** Highest target accepted, °C. */
  maxTemp: number;
}

/** Ambient temperature, °C. */
export const AMBIENT_C = 22;

/** Parameters of the virtual printer's heaters. */
export const HEATERS: Readonly<Record<string, HeaterParams>> = {
  tool0: { tau: 40, maxTemp: 300 },
  bed: { tau: 120, maxTemp: 120 },
  chamber: { tau: 400, maxTemp: 70 },
};

/** A heater's state. */
export interface HeaterState {
  actual: number;
  /** Target °C; 0 means off. */
  target: number;
}

/**
 * Advances one heater by `dtSeconds` (exact solution of the first-order model).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepHeater } from "./thermal.ts";
 * const next = stepHeater({ actual: 22, target: 200 }, 40, { tau: 40, maxTemp: 300 });
 * assert.ok(Math.abs(next.actual - (22 + 178 * (1 - Math.exp(-1)))) < 1e-9);
 * ```
 */
export function stepHeater(
  state: HeaterState,
  dtSeconds: number,
  params: HeaterParams,
  ambient: number = AMBIENT_C,
): HeaterState {
  const goal = state.target > 0 ? Math.min(state.target, params.maxTemp) : ambient;
  const k = 1 - Math.exp(-Math.max(0, dtSeconds) / params.tau);
  return { actual: state.actual + (goal - state.actual) * k, target: state.target };
}

/** Seconds the model needs to go from `from` to within `epsilon` of `target` (Infinity if never). */
export function timeToReach(
  from: number,
  target: number,
  params: HeaterParams,
  epsilon = 0.5,
  ambient: number = AMBIENT_C,
): number {
  const goal = target > 0 ? Math.min(target, params.maxTemp) : ambient;
  const gap = Math.abs(goal - from);
  if (gap <= epsilon) return 0;
  if (Math.abs(goal - target) > epsilon && target > 0) return Infinity;
  return params.tau * Math.log(gap / epsilon);
}
