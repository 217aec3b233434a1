/**
 * Concurrent writers on a PostgreSQL store (issue 30.3): what the store's write lock
 * (lib/store/transaction.ts: every write transaction takes the `store_changes` row at `BEGIN`)
 * costs in throughput, beside the same writes without it (`BEGIN` alone, as before the lock;
 * the triggers then take that row at the transaction's first write).
 *
 * Method
 * - Server: a PostgreSQL 15 cluster of its own (tests/_postgres.ts), a fresh database per mode.
 * - `--writers` processes (this script with `--child`), each with its own store connection,
 *   start together and each stores `--results` results of its own 8 models (one machine each)
 *   the way a benchmark does: the model
 *   upserted, the result begun, `--runs` runs added one transaction each, the result finished
 *   (with its aggregates: `identity_latest` and `line_sums` updated by the triggers).
 * - Measured: the wall time from the start signal to the last writer's end (write transactions
 *   per second over all writers) and each transaction's latency in its writer (p50, p95).
 * - Modes alternate, `--repeats` times each.
 *
 * Run: `deno run -A perf/store_writers_postgres.ts [--writers 4] [--results 40] [--runs 10]
 * [--repeats 3]` (needs Debian's `postgresql` package, as the PostgreSQL tests).
 *
 * @module
 */
import { print } from "../lib/log.ts";
import { parseOptions } from "../lib/args.ts";
import { ResultsStore } from "../lib/store/mod.ts";
import { WRITE_LOCK_SQL } from "../lib/store/transaction.ts";
import { testPostgres } from "../tests/_postgres.ts";
import { fmtMs, medianOf, quantileOf } from "./_measure.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    writers: { type: "string", default: "4" },
    results: { type: "string", default: "40" },
    runs: { type: "string", default: "10" },
    repeats: { type: "string", default: "3" },
    child: { type: "string" },
    url: { type: "string" },
    lock: { type: "string", default: "on" },
  },
});
const RESULTS = Number(values.results);
const RUNS = Number(values.runs);

/** One writer: stores its results, one transaction at a time; prints each latency (ms). */
async function child(url: string, writer: number, lock: boolean): Promise<void> {
  const store = ResultsStore.open(url);
  if (!lock) {
    // The writes as they were before the lock: the same transactions, `BEGIN` alone.
    const exec = store.db.exec.bind(store.db);
    store.db.exec = (sql: string) => exec(sql === `BEGIN; ${WRITE_LOCK_SQL}` ? "BEGIN" : sql);
  }
  print("ready");
  await Deno.stdin.readable.getReader().read();
  const times: number[] = [];
  const timed = <T>(fn: () => T): T => {
    const t0 = performance.now();
    const out = fn();
    times.push(performance.now() - t0);
    return out;
  };
  for (let i = 0; i < RESULTS; i++) {
    // Each writer its own models: without the lock, two writers inserting one new model race
    // (the second's insert fails on the unique key; tests/e2e/store_postgres_lock_order_test.ts).
    const key = `org/model-${writer}-${i % 8}@q4`;
    const model = { model_key: key, model_name: key, quantization: "q4" };
    timed(() => store.upsertModel(model));
    const id = timed(() =>
      store.beginResult({ model, params_hash: `h${i % 3}`, backend: "rest", params: {} })
    );
    for (let r = 0; r < RUNS; r++) {
      timed(() => store.addRun(id, { run_index: r, tokens_per_sec: 40 + writer + r }));
    }
    timed(() =>
      store.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 40 + writer } })
    );
  }
  store.close();
  print(JSON.stringify(times));
}

/** One round: `writers` children on a fresh database; wall time and every latency. */
async function round(lock: boolean, writers: number) {
  const url = await (await testPostgres()).createDatabase();
  ResultsStore.open(url).close(); // migrated before the writers start
  const procs = Array.from({ length: writers }, (_, w) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL(import.meta.url).pathname,
        ...["--child", String(w), "--url", url, "--lock", lock ? "on" : "off"],
        ...["--results", String(RESULTS), "--runs", String(RUNS)],
      ],
      stdin: "piped",
      stdout: "piped",
    }).spawn());
  const readers = procs.map((p) => p.stdout.pipeThrough(new TextDecoderStream()).getReader());
  let texts = procs.map(() => "");
  const readLine = async (i: number) => {
    while (!texts[i]!.includes("\n")) {
      const { value, done } = await readers[i]!.read();
      if (done) throw new Error(`writer ${i} ended early`);
      texts[i] += value;
    }
  };
  await Promise.all(procs.map((_, i) => readLine(i)));
  texts = texts.map((t) => t.slice(t.indexOf("\n") + 1));
  const t0 = performance.now();
  await Promise.all(procs.map(async (p) => {
    const w = p.stdin.getWriter();
    await w.write(new TextEncoder().encode("go\n"));
    await w.close();
  }));
  await Promise.all(procs.map(async (p, i) => {
    for (;;) {
      const { value, done } = await readers[i]!.read();
      if (done) break;
      texts[i] += value;
    }
    if (!(await p.status).success) throw new Error(`writer ${i} failed`);
  }));
  const wall = performance.now() - t0;
  const times = texts.flatMap((t) => JSON.parse(t) as number[]);
  return { wall, times };
}

if (values.child !== undefined) {
  await child(values.url!, Number(values.child), values.lock === "on");
} else {
  const writers = Number(values.writers);
  const per = { on: [] as number[], off: [] as number[] };
  const lat = { on: [] as number[], off: [] as number[] };
  for (let r = 0; r < Number(values.repeats); r++) {
    for (const mode of ["off", "on"] as const) {
      const { wall, times } = await round(mode === "on", writers);
      per[mode].push(times.length / (wall / 1000));
      lat[mode].push(...times);
      print(
        `${mode === "on" ? "write lock" : "no lock   "}: ${times.length} transactions in ` +
          `${fmtMs(wall)} (${Math.round(times.length / (wall / 1000))}/s), p50 ` +
          `${fmtMs(quantileOf(times, 0.5))}, p95 ${fmtMs(quantileOf(times, 0.95))}`,
      );
    }
  }
  for (const mode of ["off", "on"] as const) {
    print(
      `${mode === "on" ? "write lock" : "no lock   "} median: ` +
        `${Math.round(medianOf(per[mode]))} transactions/s, p50 ${
          fmtMs(quantileOf(lat[mode], 0.5))
        }` +
        `, p95 ${fmtMs(quantileOf(lat[mode], 0.95))} (${writers} writers)`,
    );
  }
}
