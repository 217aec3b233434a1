/**
 * Where uptimes come from: the system's from `/proc/uptime` (read through an injected reader),
 * the host's from the process start time.
 *
 * @module
 */

/** Reads the text of `/proc/uptime`. */
export type ProcReader = () => Promise<string>;

/**
 * The real reader: `/proc/uptime`, or when Deno refuses that path (it needs `--allow-all` for
 * `/proc`), the same kernel counter through `Deno.osUptime()` (`--allow-sys=osUptime`, which
 * the descriptor declares).
 */
export const readProcUptime: ProcReader = async () => {
  try {
    return await Deno.readTextFile("/proc/uptime");
  } catch (err) {
    if (!(err instanceof Deno.errors.NotCapable)) throw err;
    return `${Deno.osUptime()} 0`;
  }
};

/**
 * The system uptime in seconds, or null when the source cannot be read or parsed (missing
 * file, no read permission).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemUptimeSeconds } from "./source.ts";
 * assert.equal(await systemUptimeSeconds(() => Promise.resolve("350735.47 234388.90\n")), 350735.47);
 * assert.equal(await systemUptimeSeconds(() => Promise.reject(new Error("no"))), null);
 * ```
 */
export async function systemUptimeSeconds(read: ProcReader): Promise<number | null> {
  let text: string;
  try {
    text = await read();
  } catch {
    return null;
  }
  const first = Number(text.trim().split(/\s+/)[0]);
  return Number.isFinite(first) && first >= 0 && first < 10 * 365 * 86400 ? first : null;
}

/** The host's uptime in seconds from its start time (null when the clock went backwards). */
export function hostUptimeSeconds(startedAt: number, now: number): number | null {
  const s = (now - startedAt) / 1000;
  return s >= 0 ? s : null;
}
