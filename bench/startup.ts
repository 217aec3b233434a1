/**
 * Start-up benchmark: `deno run -A cli.ts --help` (and `--list-presets`, a command that reads the
 * configuration) against `deno eval 0`, the runtime doing nothing.
 *
 * Method
 * - Each case is a fresh process of the pinned Deno (`node_modules/.bin/deno`, or `deno` on PATH)
 *   run from the repository under `/usr/bin/time -f %M` (Debian package `time`): wall time from
 *   spawn to exit measured here, peak RSS reported by GNU time. Output goes to a pipe.
 * - One unmeasured run of every case first (Deno's module cache warm, as after any first start).
 * - `--repeats` (≥ 5) rounds; each round runs every case once, in turn (interleaved).
 * - Printed per case: median and min of the time and of the peak RSS, and the ratios of the
 *   medians to `deno eval 0`. Goal: `cli.ts --help` ≤ 4× in time and in RSS.
 *
 * Run: `deno run -A bench/startup.ts [--repeats 10]`
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { print } from "../lib/log.ts";
import { medianOf, minOf, type ProcessRun, timeProcess } from "./_measure.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { repeats: { type: "string", default: "10" } },
});
const REPEATS = Math.max(5, Number(values.repeats));
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DENO = Deno.execPath();

const CASES: [string, string[]][] = [
  ["deno eval 0 (peer)", [DENO, "eval", "0"]],
  ["cli.ts --help", [DENO, "run", "-A", "cli.ts", "--help"]],
  ["cli.ts --list-presets", [DENO, "run", "-A", "cli.ts", "--list-presets"]],
];

const env = { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" };
const runs = new Map<string, ProcessRun[]>(CASES.map(([name]) => [name, []]));
for (const [, cmd] of CASES) await timeProcess(cmd, { cwd: ROOT, env });
for (let r = 0; r < REPEATS; r++) {
  for (const [name, cmd] of CASES) {
    const run = await timeProcess(cmd, { cwd: ROOT, env });
    if (run.code !== 0) throw new Error(`${name} exited with ${run.code}`);
    runs.get(name)!.push(run);
  }
}

const peer = runs.get(CASES[0]![0])!;
const peerMs = medianOf(peer.map((r) => r.ms));
const peerRss = medianOf(peer.map((r) => r.rssMiB));
print(`${REPEATS} interleaved rounds, ${DENO}\n`);
print("| case | time median (min) | × eval | peak RSS median (min) | × eval |");
print("|---|---|---|---|---|");
for (const [name] of CASES) {
  const rs = runs.get(name)!;
  const ms = rs.map((r) => r.ms);
  const rss = rs.map((r) => r.rssMiB);
  print(
    `| \`${name}\` | ${medianOf(ms).toFixed(0)} ms (${minOf(ms).toFixed(0)}) | ` +
      `${(medianOf(ms) / peerMs).toFixed(2)}× | ${medianOf(rss).toFixed(0)} MiB ` +
      `(${minOf(rss).toFixed(0)}) | ${(medianOf(rss) / peerRss).toFixed(2)}× |`,
  );
}
