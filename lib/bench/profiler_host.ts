/**
 * Host readings of the profiler: the file reader of the GPU's sysfs (rooted, so tests can give a
 * fake `/sys` tree), CPU use and memory in use (injected sensors, so tests give fakes).
 *
 * @module
 */
import { cpus as cpus_ } from "node:os";
import { join } from "node:path";
import { SetupError } from "../error.ts";
import { listKernelDir, readKernelText } from "../kernel_files.ts";

/** Reads host files below a root (`/` on the machine, a temp folder in tests). */
export interface HostFiles {
  /**
   * The file's text, or null when it is missing; throws a `SetupError` when this program may not
   * read it (see `lib/kernel_files.ts`).
   */
  readText(path: string): Promise<string | null>;
  /** Names in a folder (sorted), or an empty list when it is missing; throws like `readText`. */
  list(path: string): Promise<string[]>;
}

/** Reads files below `root` (absolute paths such as `/sys/class/drm` are taken relative to it). */
export function hostFiles(root = "/"): HostFiles {
  const at = (path: string) => join(root, path);
  return {
    readText: (path) => readKernelText(at(path)),
    list: async (path) => (await listKernelDir(at(path))).sort(),
  };
}

/** Cumulative CPU time of the whole machine (any one unit). */
export interface CpuTimes {
  busy: number;
  total: number;
}

/** CPU use in percent between two readings; null when no time passed. */
export function cpuPercent(before: CpuTimes, after: CpuTimes): number | null {
  const total = after.total - before.total;
  if (total <= 0) return null;
  return Math.min(100, Math.max(0, 100 * (after.busy - before.busy) / total));
}

/** The machine's CPU times and memory, read through Deno's system APIs (`--allow-sys`). */
export interface HostSensors {
  /** Cumulative CPU times of every core; throws when they cannot be read. */
  cpuTimes(): CpuTimes;
  /** Memory in use in GiB (total − available); throws when it cannot be read. */
  ramUsedGiB(): number;
}

/**
 * The sensors of this machine: `os.cpus()` (the kernel's `/proc/stat` counters, summed over the
 * cores) and `Deno.systemMemoryInfo()` (`MemTotal − MemAvailable`). Both need only
 * `--allow-sys`, which every task grants; a reading of `/proc` itself needs `--allow-all`.
 */
export const platformSensors: HostSensors = {
  cpuTimes() {
    const cpus = cpus_();
    if (cpus.length === 0) throw new SetupError("the system reports no CPU times");
    let busy = 0;
    let total = 0;
    for (const { times: t } of cpus) {
      busy += t.user + t.nice + t.sys + t.irq;
      total += t.user + t.nice + t.sys + t.irq + t.idle;
    }
    return { busy, total };
  },
  ramUsedGiB() {
    const m = Deno.systemMemoryInfo();
    return (m.total - m.available) / 1024 ** 3;
  },
};

/** Measures CPU use between successive calls of {@linkcode CpuMeter.read}. */
export class CpuMeter {
  #last: CpuTimes | null = null;
  constructor(private readonly sensors: HostSensors) {}

  /** Percent since the previous call (null on the first call); throws when unreadable. */
  read(): number | null {
    const now = this.sensors.cpuTimes();
    const before = this.#last;
    this.#last = now;
    return before ? cpuPercent(before, now) : null;
  }
}
