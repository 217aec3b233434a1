/**
 * Small helpers the benchmarks share: medians, timing a child process (wall time and peak RSS
 * through GNU time), and the sqlite3 shell as a peer.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { quantile } from "../lib/stats.ts";
import { parseOptions } from "../lib/args.ts";

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

/** A named command. */
export type ProcessCase = [name: string, cmd: string[]];

/**
 * Runs every case once unmeasured, then `repeats` rounds of every case in turn (interleaved);
 * a non-zero exit fails the benchmark.
 */
export async function interleaved(
  cases: ProcessCase[],
  repeats: number,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Map<string, ProcessRun[]>> {
  const runs = new Map<string, ProcessRun[]>(cases.map(([name]) => [name, []]));
  for (const [, cmd] of cases) await timeProcess(cmd, options);
  for (let r = 0; r < repeats; r++) {
    for (const [name, cmd] of cases) {
      const run = await timeProcess(cmd, options);
      if (run.code !== 0) throw new Error(`${name} exited with ${run.code}`);
      runs.get(name)!.push(run);
    }
  }
  return runs;
}

/** A Markdown table of time and peak RSS per case, with ratios to the first case (the peer). */
export function processTable(runs: Map<string, ProcessRun[]>): string {
  const [peer] = runs.values();
  const peerMs = medianOf(peer!.map((r) => r.ms));
  const peerRss = medianOf(peer!.map((r) => r.rssMiB));
  const lines = [
    "| case | time median (min) | × peer | peak RSS median (min) | × peer |",
    "|---|---|---|---|---|",
  ];
  for (const [name, rs] of runs) {
    const ms = rs.map((r) => r.ms);
    const rss = rs.map((r) => r.rssMiB);
    lines.push(
      `| \`${name}\` | ${medianOf(ms).toFixed(0)} ms (${minOf(ms).toFixed(0)}) | ` +
        `${(medianOf(ms) / peerMs).toFixed(2)}× | ${medianOf(rss).toFixed(0)} MiB ` +
        `(${minOf(rss).toFixed(0)}) | ${(medianOf(rss) / peerRss).toFixed(2)}× |`,
    );
  }
  return lines.join("\n");
}

/** `--repeats` (at least 5, default 10), the repository folder and the running Deno binary. */
export function processBenchSetup(args: string[]): { repeats: number; root: string; deno: string } {
  const { values } = parseOptions({
    args,
    options: { repeats: { type: "string", default: "10" } },
  });
  return {
    repeats: Math.max(5, Number(values.repeats)),
    root: fileURLToPath(new URL("..", import.meta.url)),
    deno: Deno.execPath(),
  };
}

/** A benchmark's own server process (see {@linkcode startServeChild}). */
export interface ServeChild {
  child: Deno.ChildProcess;
  /** What matched the ready pattern in its standard output. */
  ready: RegExpExecArray;
  /** Kills the process and waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts the benchmark script `script` (its `import.meta.url`) again as a server, `--serve ARGS`,
 * with `gc()` exposed, and reads its standard output until `ready` matches.
 */
export async function startServeChild(
  script: string,
  args: string[],
  ready: RegExp,
  stderr: "inherit" | "null" = "inherit",
): Promise<ServeChild> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", fileURLToPath(script), "--serve", ...args],
    stdout: "piped",
    stderr,
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let match: RegExpExecArray | null;
  while ((match = ready.exec(text)) === null) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${args[0]}: the server ended before listening`);
    text += value;
  }
  return {
    child,
    ready: match,
    async stop() {
      child.kill("SIGKILL");
      await child.status;
      await reader.cancel().catch(() => {});
    },
  };
}
