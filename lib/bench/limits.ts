/**
 * `--max-temp` / `--max-power` with profiling: before the next run, wait (up to 120 s) until the
 * sampled value is back under the limit; the wait and a warning are recorded on the model.
 *
 * @module
 */
import { sleep } from "../clock.ts";
import type { Profiler } from "./profiler_types.ts";

/** Longest wait for the limits before going on anyway. */
export const LIMIT_WAIT_MS = 120_000;

/** Options that carry the limits. */
export interface Limits {
  max_temp: number | null;
  max_power: number | null;
}

/** Waits until the profiler's sample is under the limits; returns the seconds waited and a warning. */
export async function waitForLimits(
  profiler: Profiler,
  limits: Limits,
  signal: AbortSignal,
  options: { pollMs?: number; maxWaitMs?: number } = {},
): Promise<{ seconds: number; warning: string | null }> {
  if (limits.max_temp === null && limits.max_power === null) return { seconds: 0, warning: null };
  const poll = options.pollMs ?? 1000;
  const maxWait = options.maxWaitMs ?? LIMIT_WAIT_MS;
  const started = performance.now();
  let over: string | null = null;
  let first: string | null = null;
  for (let polls = 0;; polls++) {
    const s = await profiler.sample();
    over = limits.max_temp !== null && s.temp_c !== null && s.temp_c > limits.max_temp
      ? `GPU temperature ${s.temp_c.toFixed(0)} °C above --max-temp ${limits.max_temp}`
      : limits.max_power !== null && s.power_w !== null && s.power_w > limits.max_power
      ? `GPU power ${s.power_w.toFixed(0)} W above --max-power ${limits.max_power}`
      : null;
    first ??= over;
    const waited = performance.now() - started;
    if (!over) {
      // Under the limits at the first look: no wait at all (not the time of the sample).
      const seconds = polls === 0 ? 0 : waited / 1000;
      return {
        seconds,
        warning: first === null
          ? null
          : `waited ${seconds.toFixed(1)} s to cool down (${first} before run)`,
      };
    }
    if (waited >= maxWait) {
      return {
        seconds: waited / 1000,
        warning: `${over} after waiting ${(waited / 1000).toFixed(0)} s; went on`,
      };
    }
    await sleep(poll, signal);
  }
}
