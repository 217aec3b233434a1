/**
 * The G-code of what the host asks a Marlin printer to do: heater targets (`M104`, `M140`,
 * `M141`) by the heater names of the temperature reports.
 *
 * @module
 */
import { badRequest } from "../../error.ts";

/** Highest target accepted, in °C (Marlin refuses more than its own maximum anyway). */
export const MAX_TARGET_C = 500;

/**
 * The command that sets `heater`'s target to `celsius` (0 turns it off). Throws a `UsageError`
 * for another heater name or a target that is not a number in 0..{@linkcode MAX_TARGET_C}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetCommand } from "./commands.ts";
 * assert.equal(targetCommand("tool1", 210), "M104 T1 S210");
 * assert.equal(targetCommand("bed", 60.5), "M140 S60.5");
 * assert.equal(targetCommand("chamber", 0), "M141 S0");
 * ```
 */
export function targetCommand(heater: string, celsius: number): string {
  if (!Number.isFinite(celsius) || celsius < 0 || celsius > MAX_TARGET_C) {
    throw badRequest(`Cannot set ${heater} to ${celsius} °C: a target is 0..${MAX_TARGET_C}`);
  }
  const tool = heater.match(/^tool(\d{1,2})$/);
  if (tool) return `M104 T${Number(tool[1])} S${celsius}`;
  if (heater === "bed") return `M140 S${celsius}`;
  if (heater === "chamber") return `M141 S${celsius}`;
  throw badRequest(`Cannot set a target for '${heater}': heaters are tool<n>, bed and chamber`);
}
