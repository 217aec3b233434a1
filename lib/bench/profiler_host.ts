/**
 * Host readings of the profiler: the file reader (rooted, so tests can give a fake `/proc` and
 * `/sys` tree), CPU use from `/proc/stat` and memory in use from `/proc/meminfo`.
 *
 * @module
 */
import { join } from "node:path";

/** Reads host files below a root (`/` on the machine, a temp folder in tests). */
export interface HostFiles {
  /** The file's text, or null when it is missing or unreadable. */
  readText(path: string): Promise<string | null>;
  /** Names in a folder (sorted), or an empty list when it is missing. */
  list(path: string): Promise<string[]>;
}

/** Reads files below `root` (absolute paths such as `/proc/stat` are taken relative to it). */
export function hostFiles(root = "/"): HostFiles {
  const at = (path: string) => join(root, path);
  return {
    async readText(path) {
      try {
        return await Deno.readTextFile(at(path));
      } catch {
        return null;
      }
    },
    async list(path) {
      try {
        const names: string[] = [];
        for await (const e of Deno.readDir(at(path))) names.push(e.name);
        return names.sort();
      } catch {
        return [];
      }
    },
  };
}

/** Cumulative CPU time of the whole machine (jiffies). */
export interface CpuTimes {
  busy: number;
  total: number;
}

/** Parses the aggregate `cpu` line of `/proc/stat`; null when it is absent. */
export function parseProcStat(text: string): CpuTimes | null {
  const line = text.split("\n").find((l) => /^cpu\s/.test(l));
  if (!line) return null;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  if (f.length < 4 || f.some((n) => !Number.isFinite(n))) return null;
  // user nice system idle iowait irq softirq steal (guest time is already in user and nice).
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = f[3]! + (f[4] ?? 0);
  return { busy: total - idle, total };
}

/** CPU use in percent between two readings; null when no time passed. */
export function cpuPercent(before: CpuTimes, after: CpuTimes): number | null {
  const total = after.total - before.total;
  if (total <= 0) return null;
  return Math.min(100, Math.max(0, 100 * (after.busy - before.busy) / total));
}

/** Memory in use in GiB (`MemTotal − MemAvailable` of `/proc/meminfo`); null when unknown. */
export function parseMemInfo(text: string): number | null {
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+)\\s*kB`, "m").exec(text);
    return m ? Number(m[1]) : null;
  };
  const total = kb("MemTotal");
  let available = kb("MemAvailable");
  // Kernels before 3.14 have no MemAvailable: free + buffers + page cache is the usual estimate.
  if (available === null) {
    const parts = [kb("MemFree"), kb("Buffers"), kb("Cached")];
    available = parts.every((p) => p !== null) ? parts.reduce((a, b) => a! + b!, 0)! : null;
  }
  if (total === null || available === null) return null;
  return (total - available) * 1024 / 1024 ** 3;
}

/** Measures CPU use between successive calls of {@linkcode CpuMeter.read}. */
export class CpuMeter {
  #last: CpuTimes | null = null;
  constructor(private readonly files: HostFiles) {}

  /** Percent since the previous call (null on the first call or without `/proc/stat`). */
  async read(): Promise<number | null> {
    const text = await this.files.readText("/proc/stat");
    const now = text === null ? null : parseProcStat(text);
    const before = this.#last;
    this.#last = now;
    return before && now ? cpuPercent(before, now) : null;
  }
}

/** RAM in use (GiB) now, or null. */
export async function readRamGiB(files: HostFiles): Promise<number | null> {
  const text = await files.readText("/proc/meminfo");
  return text === null ? null : parseMemInfo(text);
}
