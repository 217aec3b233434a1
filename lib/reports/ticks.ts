/**
 * Axis ticks for the PDF's charts: round steps (1, 2 or 5 × 10ⁿ) covering the data, and their
 * labels with as many decimals as the step needs.
 *
 * @module
 */

/**
 * About `count` evenly spaced round ticks from at or below `min` to at or above `max`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { niceTicks } from "./ticks.ts";
 * assert.equal(niceTicks(0, 96.4).join(), "0,20,40,60,80,100");
 * ```
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max < min) [min, max] = [max, min];
  if (max === min) max = min === 0 ? 1 : min + Math.abs(min) * 0.1;
  const raw = (max - min) / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const start = Math.floor(min / step + 1e-9) * step;
  const ticks: number[] = [];
  for (let t = start; t < max + step - 1e-9 * step; t += step) {
    ticks.push(Number(t.toFixed(12)));
    if (ticks.length > 50) break;
  }
  return ticks;
}

/** A tick's label: no more decimals than its step has. */
export function tickText(value: number, step: number): string {
  const decimals = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step) - 1e-9));
  return value.toFixed(decimals);
}
