/**
 * Reports benchmark: writing the four reports (JSON, CSV, PDF with charts, HTML) of 2 model
 * variants with `deno run -A cli.ts --export-only`, against `deno eval 0` (the runtime alone).
 *
 * Method
 * - A temporary data folder whose store holds 2 variants (one model, q4_k_m and q8_0) with one
 *   finished result of 5 runs each (tests/routes/_seed.ts); each run writes a new set of four
 *   files into its `results/` folder.
 * - Each case is a fresh process of the running Deno binary under `/usr/bin/time -f %M` (Debian
 *   package `time`): wall time from spawn to exit measured here, peak RSS from GNU time.
 * - One unmeasured run of each case first; then `--repeats` (≥ 5) rounds, each running every
 *   case once, in turn (interleaved). Printed: median and min of time and peak RSS, and the
 *   ratios of the medians to `deno eval 0`. Goal: ≤ 0.5 s and ≤ 150 MB.
 * - CPU: then `--repeats` more rounds of both cases under `/usr/bin/time -f "%U %S"`: the CPU
 *   time (user + system) of each process, median and min. Goal: ≤ 0.5 s of CPU for the reports
 *   (wall time grows with the load of other work; CPU time much less).
 *
 * Run: `deno run -A perf/reports.ts [--repeats 10]`
 *
 * @module
 */
import { join } from "node:path";
import { print } from "../lib/log.ts";
import { ResultsStore } from "../lib/store/mod.ts";
import { seedStore } from "../tests/routes/_seed.ts";
import {
  interleaved,
  medianOf,
  minOf,
  processBenchSetup,
  type ProcessCase,
  processTable,
} from "./_measure.ts";

const { repeats: REPEATS, root: ROOT, deno: DENO } = processBenchSetup(Deno.args);

/** CPU seconds (user + system) of one run of `cmd`, from GNU time. */
async function cpuSeconds(
  cmd: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<number> {
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%U %S", ...cmd],
    cwd,
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  const last = new TextDecoder().decode(out.stderr).trim().split("\n").at(-1) ?? "";
  const [user, sys] = last.split(" ").map(Number);
  if (out.code !== 0 || !Number.isFinite(user! + sys!)) {
    throw new Error(`${cmd.join(" ")}: ${last}`);
  }
  return user! + sys!;
}

const root = await Deno.makeTempDir({ prefix: "localbench-reports-" });
try {
  const data = join(root, "data");
  await Deno.mkdir(data, { recursive: true });
  const store = ResultsStore.open(join(data, "results.db"));
  seedStore(store, {
    models: ["qwen/qwen3-4b"],
    quants: ["q4_k_m", "q8_0"],
    resultsPerVariant: 1,
    runsPerResult: 5,
  });
  store.close();
  const env = {
    NO_COLOR: "1",
    PATH: Deno.env.get("PATH") ?? "",
    HOME: root,
    LOCALBENCH_DATA_DIR: data,
    LOCALBENCH_CONFIG_DIR: join(root, "config"),
  };
  const cases: ProcessCase[] = [
    ["deno eval 0 (peer)", [DENO, "eval", "0"]],
    ["cli.ts --export-only (4 reports, 2 variants)", [
      DENO,
      "run",
      "-A",
      "cli.ts",
      "--export-only",
    ]],
  ];
  const runs = await interleaved(cases, REPEATS, { cwd: ROOT, env });
  const written = [...Deno.readDirSync(join(data, "results"))].length;
  if (written !== 4 * (REPEATS + 1)) {
    throw new Error(`expected ${4 * (REPEATS + 1)} report files, found ${written}`);
  }
  const cpu = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  for (let r = 0; r < REPEATS; r++) {
    for (const [name, cmd] of cases) cpu.get(name)!.push(await cpuSeconds(cmd, ROOT, env));
  }
  print(`${REPEATS} interleaved rounds, ${DENO}\n`);
  print(processTable(runs));
  print("\n| case | CPU (user + system) median (min) |\n|---|---|");
  for (const [name, s] of cpu) {
    print(`| \`${name}\` | ${medianOf(s).toFixed(2)} s (${minOf(s).toFixed(2)}) |`);
  }
} finally {
  await Deno.remove(root, { recursive: true });
}
