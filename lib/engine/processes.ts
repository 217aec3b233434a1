/**
 * Process-tree helpers on Linux (`/proc`): find every descendant of a process before stopping it,
 * so children that a parent spawned (llama-server's router starts one per loaded model) cannot be
 * left behind as orphans.
 *
 * @module
 */

/** Parent of each live process: pid → ppid. */
export type ProcessTable = Map<number, number>;

/** Reads the process table; injectable for tests. */
export type ProcessTableReader = () => ProcessTable;

/**
 * Parses one `/proc/<pid>/stat` line into `[pid, ppid, state]`; `null` when malformed.
 * The command name sits in parentheses and may itself contain spaces or parentheses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseProcStat } from "./processes.ts";
 * assert.equal(parseProcStat("42 (llama server) S 7 42 42 0")?.[1], 7);
 * ```
 */
export function parseProcStat(line: string): [number, number, string] | null {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  if (open < 1 || close < open) return null;
  const pid = Number(line.slice(0, open).trim());
  const rest = line.slice(close + 1).trim().split(/\s+/);
  const state = rest[0];
  const ppid = Number(rest[1]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !state) return null;
  return [pid, ppid, state];
}

/**
 * Reads `/proc` (Linux). Zombies are left out. Where Deno refuses `/proc` (it reads it only with
 * `--allow-all`; see `lib/kernel_files.ts`) the table comes from `ps`; with neither, it is empty.
 */
export function readProcTable(): ProcessTable {
  const table: ProcessTable = new Map();
  let entries: Iterable<Deno.DirEntry>;
  try {
    entries = Deno.readDirSync("/proc");
  } catch (err) {
    return err instanceof Deno.errors.NotCapable ? psTable() : table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const parsed = parseProcStat(Deno.readTextFileSync(`/proc/${entry.name}/stat`));
      if (parsed && parsed[2] !== "Z") table.set(parsed[0], parsed[1]);
    } catch {
      // The process ended while we were reading: skip it.
    }
  }
  return table;
}

/**
 * Parses `ps -e -o pid=,ppid=,stat=` into a table (zombies left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePsTable } from "./processes.ts";
 * assert.deepEqual([...parsePsTable("  1     0 Ss\n 42     1 Sl\n 43    42 Z\n")], [[1, 0], [42, 1]]);
 * ```
 */
export function parsePsTable(text: string): ProcessTable {
  const table: ProcessTable = new Map();
  for (const line of text.split("\n")) {
    const [pid, ppid, state] = line.trim().split(/\s+/);
    if (!state || state.startsWith("Z")) continue;
    if (/^\d+$/.test(pid!) && /^\d+$/.test(ppid!)) table.set(Number(pid), Number(ppid));
  }
  return table;
}

function psTable(): ProcessTable {
  try {
    const out = new Deno.Command("ps", {
      args: ["-e", "-o", "pid=,ppid=,stat="],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    return out.success ? parsePsTable(new TextDecoder().decode(out.stdout)) : new Map();
  } catch {
    return new Map(); // no ps, or no --allow-run
  }
}

/**
 * Every descendant of `root` (children, grandchildren …), deepest last.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { descendantsOf } from "./processes.ts";
 * const table = new Map([[2, 1], [3, 2], [4, 3], [9, 1]]);
 * assert.equal(descendantsOf(table, 2).join(), "3,4");
 * ```
 */
export function descendantsOf(table: ProcessTable, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of table) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      if (child === root || out.includes(child)) continue;
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** True while `pid` runs (Linux `/proc`); a zombie counts as ended. */
export function isAlive(pid: number): boolean {
  try {
    const parsed = parseProcStat(Deno.readTextFileSync(`/proc/${pid}/stat`));
    return parsed !== null && parsed[2] !== "Z";
  } catch {
    return false;
  }
}

/** Sends a signal, ignoring a process that is already gone. */
export function signalProcess(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(pid, signal);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof TypeError) return;
    throw err;
  }
}
