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
 * Run: `deno run -A perf/startup.ts [--repeats 10]`
 *
 * @module
 */
import { print } from "../lib/log.ts";
import { interleaved, processBenchSetup, type ProcessCase, processTable } from "./_measure.ts";

const { repeats: REPEATS, root: ROOT, deno: DENO } = processBenchSetup(Deno.args);

const CASES: ProcessCase[] = [
  ["deno eval 0 (peer)", [DENO, "eval", "0"]],
  ["cli.ts --help", [DENO, "run", "-A", "cli.ts", "--help"]],
  ["cli.ts --list-presets", [DENO, "run", "-A", "cli.ts", "--list-presets"]],
];

const env = { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" };
const runs = await interleaved(CASES, REPEATS, { cwd: ROOT, env });
print(`${REPEATS} interleaved rounds, ${DENO}\n`);
print(processTable(runs));
