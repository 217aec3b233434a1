/**
 * Fakes of the profiler tests: a fake host tree (`/sys`) in a temp folder, CPU and memory sensors, a process
 * runner answering like `nvidia-smi` / `rocm-smi` (or "not installed"), and a manual clock.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { HostFiles, HostSensors } from "../../../lib/bench/profiler_host.ts";
import type { Clock } from "../../../lib/clock.ts";
import type { ProcessResult, ProcessRunner } from "../../../lib/modelserver/process.ts";

/** A fake host root; remove it with `await using`. */
export interface FakeRoot {
  root: string;
  write(path: string, text: string): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Creates a temp root holding `files` (absolute paths inside the fake host). */
export async function fakeRoot(files: Record<string, string>): Promise<FakeRoot> {
  const root = await Deno.makeTempDir({ prefix: "localbench-profiler-" });
  const write = async (path: string, text: string) => {
    const full = join(root, path);
    await Deno.mkdir(dirname(full), { recursive: true });
    await Deno.writeTextFile(full, text);
  };
  for (const [path, text] of Object.entries(files)) await write(path, text);
  return {
    root,
    write,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** Sensors whose CPU times and memory the test sets (a sensor set to an Error throws it). */
export function fakeSensors(
  state: { busy: number; idle: number; usedGiB: number; error?: Error },
): HostSensors & { state: typeof state } {
  return {
    state,
    cpuTimes() {
      if (state.error) throw state.error;
      return { busy: state.busy, total: state.busy + state.idle };
    },
    ramUsedGiB() {
      if (state.error) throw state.error;
      return state.usedGiB;
    },
  };
}

/** A runner that answers commands by name (a function of the call count) or throws NotFound. */
export function fakeRunner(
  answers: Record<string, (args: string[], call: number) => string | ProcessResult>,
): ProcessRunner & { calls: { cmd: string; args: string[] }[] } {
  const calls: { cmd: string; args: string[] }[] = [];
  const counts = new Map<string, number>();
  return {
    calls,
    run(cmd, args) {
      calls.push({ cmd, args });
      const answer = answers[cmd];
      if (!answer) return Promise.reject(new Deno.errors.NotFound(`${cmd}: not found`));
      const n = counts.get(cmd) ?? 0;
      counts.set(cmd, n + 1);
      const out = answer(args, n);
      return Promise.resolve(
        typeof out === "string" ? { code: 0, stdout: out, stderr: "", timedOut: false } : out,
      );
    },
  };
}

/** A clock whose time and intervals move only when the test says so. */
export class ManualClock implements Clock {
  time = 1_000_000;
  #intervals = new Map<number, () => void>();
  #next = 1;

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): () => void {
    return this.setInterval(fn, ms);
  }

  setInterval(fn: () => void, _ms: number): () => void {
    const id = this.#next++;
    this.#intervals.set(id, fn);
    return () => this.#intervals.delete(id);
  }

  /** Number of live timers. */
  get timers(): number {
    return this.#intervals.size;
  }

  /** Moves time on and fires every interval once. */
  advance(ms: number): void {
    this.time += ms;
    for (const fn of [...this.#intervals.values()]) fn();
  }
}

/** An in-memory host tree (reads see the current contents at the moment they are made). */
export function memFiles(files: Record<string, string>): HostFiles & {
  files: Record<string, string>;
} {
  return {
    files,
    readText: (path) => Promise.resolve(files[path] ?? null),
    list(dir) {
      const prefix = dir.endsWith("/") ? dir : dir + "/";
      const names = new Set(
        Object.keys(files).filter((p) => p.startsWith(prefix)).map((p) =>
          p.slice(prefix.length).split("/")[0]!
        ),
      );
      return Promise.resolve([...names].sort());
    },
  };
}

/** A host without a GPU (plus `extra` sysfs files). */
export function fakeProc(extra: Record<string, string> = {}) {
  return memFiles({ ...extra });
}
