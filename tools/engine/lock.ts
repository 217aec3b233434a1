/**
 * A lock file so two `engine:setup` runs (e.g. two test runs starting at once) never build into the
 * same directory together: the second waits for the first, then finds everything done.
 *
 * @module
 */

import { ConflictError } from "../../lib/error.ts";
import { sleep } from "../../lib/clock.ts";
import { isAlive } from "../../lib/engine/mod.ts";

/** Options of {@linkcode acquireLock}. */
export interface LockOptions {
  /** Give up after this long. @default 1800000 (30 minutes, longer than any build) */
  timeoutMs?: number;
  /** Pause between attempts. @default 1000 */
  intervalMs?: number;
  /** Told once when another run holds the lock. */
  onWait?: (holderPid: number) => void;
  /** Liveness check of the holder. @default isAlive */
  isAlive?: (pid: number) => boolean;
}

/**
 * Creates `path` holding this process id, waiting while a live process holds it. A lock left by a
 * process that no longer runs is taken over.
 *
 * @returns a function that releases the lock
 * @throws {ConflictError} `setup_locked` when the holder does not finish in time
 */
export async function acquireLock(
  path: string,
  options: LockOptions = {},
): Promise<() => Promise<void>> {
  const alive = options.isAlive ?? isAlive;
  const deadline = Date.now() + (options.timeoutMs ?? 1_800_000);
  let told = false;
  while (true) {
    // Write the pid to a private file, then hard-link it into place: the link either fails or
    // appears with its content, so nobody ever reads a half-written lock.
    const mine = `${path}.${Deno.pid}`;
    await Deno.writeTextFile(mine, String(Deno.pid));
    try {
      await Deno.link(mine, path);
      return () => Deno.remove(path).catch(() => undefined);
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    } finally {
      await Deno.remove(mine).catch(() => undefined);
    }
    const holder = Number((await Deno.readTextFile(path).catch(() => "")).trim());
    if (!Number.isInteger(holder) || holder <= 0 || !alive(holder)) {
      await Deno.remove(path).catch(() => undefined);
      continue;
    }
    if (!told) {
      options.onWait?.(holder);
      told = true;
    }
    if (Date.now() >= deadline) {
      throw new ConflictError(`Cannot set up the engine: process ${holder} holds '${path}'`, {
        code: "setup_locked",
      });
    }
    await sleep(options.intervalMs ?? 1_000);
  }
}
