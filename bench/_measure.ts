/**
 * Small helpers the benchmarks share: medians, timing a child process (wall time and peak RSS
 * through GNU time), and the sqlite3 shell as a peer.
 *
 * @module
 */
import { quantile } from "../lib/bench/stats.ts";

/** The `q` quantile of the values (linear interpolation); NaN when there are none. */
export function quantileOf(xs: number[], q: number): number {
  return quantile([...xs].sort((a, b) => a - b), q) ?? NaN;
}

/** The median of the values. */
export function medianOf(xs: number[]): number {
  return quantileOf(xs, 0.5);
}

/** The smallest value. */
export function minOf(xs: number[]): number {
  return Math.min(...xs);
}

/** Milliseconds with a precision that suits their size. */
export function fmtMs(ms: number): string {
  return ms >= 100
    ? `${ms.toFixed(0)} ms`
    : ms >= 10
    ? `${ms.toFixed(1)} ms`
    : `${ms.toFixed(2)} ms`;
}

/** One run of a child process. */
export interface ProcessRun {
  ms: number;
  /** Peak resident set size in MiB (GNU time's %M). */
  rssMiB: number;
  code: number;
}

/**
 * Runs `cmd` under `/usr/bin/time -f %M` (Debian package `time`), stdout and stderr piped away;
 * the wall time is measured here, from spawn to exit.
 */
export async function timeProcess(
  cmd: string[],
  options: { stdin?: string; cwd?: string; env?: Record<string, string> } = {},
): Promise<ProcessRun> {
  const t0 = performance.now();
  const child = new Deno.Command("/usr/bin/time", {
    args: ["-f", "%M", ...cmd],
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    cwd: options.cwd,
    env: options.env,
  }).spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin));
    await w.close();
  }
  const out = await child.output();
  const ms = performance.now() - t0;
  const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
  const kib = Number(lines.at(-1));
  if (!Number.isFinite(kib)) {
    throw new Error(`${cmd.join(" ")} failed (${out.code}): ${lines.join("\n")}`);
  }
  return { ms, rssMiB: kib / 1024, code: out.code };
}

/** Wall time of `sqlite3 -batch -readonly <file>` running `script` (output read and dropped). */
export async function sqlite3Peer(file: string, script: string): Promise<number> {
  const run = await timeProcess(["sqlite3", "-batch", "-readonly", file], { stdin: script });
  if (run.code !== 0) throw new Error(`sqlite3 failed on ${file}`);
  return run.ms;
}
