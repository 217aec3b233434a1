/**
 * Stops a process and everything it spawned: SIGTERM, a grace period, then SIGKILL, for the parent
 * first (so it can shut its children down cleanly) and then for any descendant still running.
 *
 * @module
 */

import { sleep } from "../clock.ts";
import {
  descendantsOf,
  isAlive,
  type ProcessTableReader,
  readProcTable,
  signalProcess,
} from "./processes.ts";

/** The part of `Deno.ChildProcess` this module needs. */
export interface StoppableProcess {
  /** Process id. */
  readonly pid: number;
  /** Resolves when the process has exited. */
  readonly status: Promise<unknown>;
  /** Sends a signal. */
  kill(signal?: Deno.Signal): void;
}

/** Options of {@linkcode stopProcessTree}. */
export interface StopTreeOptions {
  /** Grace period after SIGTERM before SIGKILL, for the parent and again for leftovers. @default 10000 */
  graceMs?: number;
  /** Process table source. @default readProcTable */
  readTable?: ProcessTableReader;
  /** Liveness check for descendants. @default isAlive */
  isAlive?: (pid: number) => boolean;
  /** Signal sender for descendants. @default signalProcess */
  signal?: (pid: number, signal: Deno.Signal) => void;
}

/**
 * Terminates `child` and its descendants, waiting for each to exit.
 *
 * @returns the pids of descendants that had to be signalled after the parent exited
 */
export async function stopProcessTree(
  child: StoppableProcess,
  options: StopTreeOptions = {},
): Promise<number[]> {
  const graceMs = options.graceMs ?? 10_000;
  const alive = options.isAlive ?? isAlive;
  const send = options.signal ?? signalProcess;
  // Read the tree first: once the parent is gone its children are re-parented and untraceable.
  const descendants = descendantsOf((options.readTable ?? readProcTable)(), child.pid);
  let exited = false;
  const done = child.status.then(() => (exited = true), () => (exited = true));
  trySignal(child, "SIGTERM");
  const grace = new AbortController();
  await Promise.race([done, sleep(graceMs, grace.signal).catch(() => undefined)]);
  grace.abort();
  if (!exited) {
    trySignal(child, "SIGKILL");
    await done;
  }
  const leftovers = descendants.filter(alive);
  for (const pid of leftovers) send(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (leftovers.some(alive) && Date.now() < deadline) await sleep(25);
  for (const pid of leftovers.filter(alive)) send(pid, "SIGKILL");
  // SIGKILL is delivered asynchronously: wait briefly until the kernel has ended them.
  for (let i = 0; i < 40 && leftovers.some(alive); i++) await sleep(25);
  return leftovers;
}

function trySignal(child: StoppableProcess, signal: Deno.Signal): void {
  try {
    child.kill(signal);
  } catch {
    // Already exited.
  }
}
