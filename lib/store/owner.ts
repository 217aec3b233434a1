/**
 * Which process owns a `running` result: the process id and its start time (from
 * `/proc/<pid>/stat`, so a recycled process id is not taken for the old process). At the next
 * start, a `running` result whose owner is gone was left by a killed process: it is marked as
 * interrupted, with every run it completed kept. In a store shared by several machines
 * (PostgreSQL) the token starts with the machine's host name (`host/pid:ticks`): a process of
 * another machine cannot be checked here and counts as alive.
 *
 * @module
 */
import { readKernelTextSync } from "../kernel_files.ts";

/**
 * Reads `/proc/<pid>/stat` (through `cat` where Deno refuses `/proc`: see kernel_files.ts): the
 * process's start time in clock ticks since boot, or null when the process does not exist.
 */
function startTicks(pid: number): string | null | "unknown" {
  let text: string | null;
  try {
    text = readKernelTextSync(`/proc/${pid}/stat`);
  } catch {
    return "unknown"; // no permission to read or run anything: cannot tell
  }
  if (text === null) return Deno.build.os === "linux" ? null : "unknown"; // no /proc elsewhere
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? "unknown";
}

/** The owner token of this process (`<pid>:<start ticks>`). */
export function currentOwner(): string {
  return `${Deno.pid}:${startTicks(Deno.pid) ?? "unknown"}`;
}

/** This machine's host name (empty where it cannot be read). */
export function hostName(): string {
  try {
    return Deno.hostname();
  } catch {
    return "";
  }
}

/** The owner token in a store shared by machines: `host/pid:ticks`. */
export function sharedOwner(): string {
  return `${hostName()}/${currentOwner()}`;
}

/**
 * Whether the process of an owner token still runs. A token this system cannot check (no
 * `/proc`) counts as alive; a missing token (results written before owners were recorded)
 * counts as gone.
 */
export function ownerAlive(owner: string | null, host: () => string = hostName): boolean {
  if (owner === null) return false;
  const slash = owner.lastIndexOf("/");
  if (slash >= 0 && owner.slice(0, slash) !== host()) return true;
  const [pid, start] = owner.slice(slash + 1).split(":");
  const now = startTicks(Number(pid));
  if (now === null) return false;
  if (now === "unknown" || start === "unknown") return true;
  return now === start;
}
