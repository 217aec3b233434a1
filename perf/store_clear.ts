/**
 * Cache clear benchmark: `POST /api/cache/clear` (backup copy, then every model, result and run
 * deleted) at 1 000, 100 000 and 1 000 000 stored runs, against Debian's `sqlite3` shell doing
 * the same.
 *
 * Method
 * - Store: one results database per size, seeded once with the dashboard benchmark's realistic
 *   history (tests/lib/store/_history_seed.ts: 150 variants, 10% failed or stopped results, 3–10
 *   runs per result) and checkpointed; every measured clear starts from a fresh copy of it (the
 *   copy and the start of the web app are not timed).
 * - localbench: the web app served by `Deno.serve` on 127.0.0.1 (a free port); the time is from
 *   sending the POST to the last byte of its answer (backup file written, store cleared).
 * - Peer: the `sqlite3` shell (`sqlite3 -batch <copy>`, process start included) running
 *   `.backup <file>` and then the statements the store runs to clear (recorded from the store's
 *   own calls on a small store of the same schema, so they cannot drift), with the store's
 *   `PRAGMA synchronous = NORMAL`.
 * - Also timed, for reference: the shell doing what the store did before (backup, then
 *   `DELETE FROM models` with foreign keys on: the cascade, row by row, through the triggers).
 * - Repeats: `--repeats` (≥ 5) rounds, each clearing once with every case in turn (interleaved);
 *   one unmeasured round first. Printed per size: median and min of each case and the ratio of
 *   the medians to the peer; every clear is checked to leave an empty store and a backup holding
 *   every run.
 *
 * Needs the `sqlite3` shell (`apt-get install sqlite3`; tools/test_deps.sh installs it).
 *
 * Run: `deno run -A perf/store_clear.ts [--sizes 1000,100000,1000000] [--repeats 5]`
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { print } from "../lib/log.ts";
import { clearResults } from "../lib/store/clear.ts";
import { ResultsStore } from "../lib/store/mod.ts";
import { capture } from "../tests/lib/store/_capture.ts";
import { seedHistory } from "../tests/lib/store/_history_seed.ts";
import { fmtMs, medianOf, minOf, timeProcess } from "./_measure.ts";
import { serveWebApp } from "./_web.ts";
import { parseOptions } from "../lib/args.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "1000,100000,1000000" },
    repeats: { type: "string", default: "5" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const REPEATS = Math.max(5, Number(values.repeats));

/** The statements the store runs to clear, as one script for the shell. */
function clearScript(): string {
  const store = ResultsStore.open(":memory:");
  try {
    seedHistory(store.db, { runs: 50, variants: 3 });
    const recorded = capture(store.db);
    clearResults(recorded.db);
    return recorded.statements.map((s) => `${s.expanded.replace(/;\s*$/, "")};`).join("\n");
  } finally {
    store.close();
  }
}

const count = (file: string, table: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/** Fails the benchmark unless `db` is empty and `backup` holds all `runs`. */
function check(db: string, backup: string, runs: number, what: string): void {
  const left = count(db, "runs") + count(db, "results") + count(db, "models");
  const kept = count(backup, "runs");
  if (left !== 0 || kept !== runs) {
    throw new Error(`${what}: ${left} rows left, ${kept} of ${runs} runs in the backup`);
  }
}

async function fresh(seed: string, dir: string): Promise<string> {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(dir, "data"), { recursive: true });
  const file = join(dir, "data", "results.db");
  await Deno.copyFile(seed, file);
  return file;
}

/** One clear through the dashboard's endpoint; returns its time. */
async function viaEndpoint(seed: string, dir: string, runs: number): Promise<number> {
  const file = await fresh(seed, dir);
  await using served = await serveWebApp(dir);
  const t0 = performance.now();
  const res = await fetch(`${served.base}/api/cache/clear`, {
    method: "POST",
    headers: { origin: served.base },
  });
  const body = await res.json();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`POST /api/cache/clear answered ${res.status}: ${body.error}`);
  check(file, body.backup_file, runs, "localbench");
  return ms;
}

/** One clear by the sqlite3 shell: `.backup`, then `script`; returns its time. */
async function viaShell(seed: string, dir: string, runs: number, script: string, what: string) {
  const file = await fresh(seed, dir);
  const backup = join(dir, "backup.db");
  const run = await timeProcess(["sqlite3", "-batch", "-bail", file], {
    stdin: `PRAGMA synchronous = NORMAL;\n.backup '${backup}'\n${script}\n`,
  });
  if (run.code !== 0) throw new Error(`sqlite3 (${what}) failed`);
  check(file, backup, runs, what);
  return run.ms;
}

const CASES = ["localbench", "sqlite3 same statements", "sqlite3 cascade (before)"] as const;
type Case = typeof CASES[number];

async function benchSize(runs: number, script: string): Promise<Map<Case, number[]>> {
  const root = await Deno.makeTempDir({ prefix: "localbench-clear-" });
  try {
    const seed = join(root, "seed.db");
    const seeding = ResultsStore.open(seed);
    const seeded = seedHistory(seeding.db, { runs });
    seeding.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    seeding.close();
    print(`\n${runs} runs: ${seeded.variants} variants, ${seeded.results} results`);
    const work = join(root, "work");
    const cascade = "PRAGMA foreign_keys = ON;\nDELETE FROM models;";
    const times = new Map<Case, number[]>(CASES.map((c) => [c, []]));
    for (let round = 0; round <= REPEATS; round++) {
      const measured = [
        await viaEndpoint(seed, work, seeded.runs),
        await viaShell(seed, work, seeded.runs, script, CASES[1]),
        await viaShell(seed, work, seeded.runs, cascade, CASES[2]),
      ];
      if (round > 0) CASES.forEach((c, i) => times.get(c)!.push(measured[i]!));
    }
    return times;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const script = clearScript();
const rows: string[] = [];
for (const size of SIZES) {
  const times = await benchSize(size, script);
  const peer = medianOf(times.get(CASES[1])!);
  for (const [name, ms] of times) {
    rows.push(
      `| ${size.toLocaleString("en")} | ${name} | ${fmtMs(medianOf(ms))} (${fmtMs(minOf(ms))}) | ` +
        `${(medianOf(ms) / peer).toFixed(2)}× |`,
    );
  }
}
print(
  `\n${REPEATS} interleaved rounds per size; load average ${
    Deno.loadavg().map((l) => l.toFixed(1)).join(", ")
  }.`,
);
print("\n| stored runs | case | median (min) | × sqlite3 same statements |");
print("|---|---|---|---|");
for (const row of rows) print(row);
