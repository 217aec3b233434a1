/**
 * Comparison API benchmark: `GET /api/comparison/{model_name}` (its default page and
 * `?per_line=400`) and the Comparison page at 13 739 history points of one model, against the
 * same SQL run directly through `node:sqlite`, and the dashboard's memory after 100 requests.
 *
 * Method
 * - Store: one model with `--points` finished results (default 13 739) over three lines (two
 *   variants through REST, one through the SDK with another workload), written through the
 *   store's API (tests/lib/store/_long_history.ts), one minute apart.
 * - localbench: the web app in a child process (this file with `--serve`), served by
 *   `Deno.serve` on 127.0.0.1 (a free port); requests sent with `fetch` one at a time, timed from
 *   sending to the last body byte. Before each measured request a second connection commits a
 *   new finished result of the model (`INSERT`, as the benchmark stores one: the history grows
 *   by one point per request; the triggers keep the lines' sums, the downsampled points are
 *   picked again). Beside it: a request after a write elsewhere (another table's row: the
 *   model's lines unchanged), and one to the unchanged store.
 * - Peer: the statements the endpoint ran for an answer after a new result (recorded from the
 *   store's own calls, with their arguments, on the second of two answers with a result written
 *   between them: the store keeps each line's points in memory and reads only the new ones),
 *   prepared and run with `.all()` through `node:sqlite` in this process on the same file (with
 *   the store's aggregate function registered): what the answer costs SQLite alone, without
 *   building and sending the JSON. A new result commits before each peer run too (the recorded
 *   read of the points after the recorded last one returns more rows as the run goes on).
 * - Repeats: `--repeats` (≥ 5) rounds of `--requests` requests per path and as many peer runs,
 *   interleaved; 3 unmeasured warm-up requests first. Printed per path: p50 and p95 of both, the
 *   ratio of the medians and the answer's bytes. Goal: p95 ≤ 50 ms.
 * - Memory: the child's resident set size (VmRSS, /proc) fresh, after 100 requests of the
 *   default page (each after a new result; goal ≤ 150 MB; `--memory-writes none`: without the
 *   writes, every answer from kept sums), and at the end, after the measured requests and 100
 *   more of every path.
 *
 * Run: `deno run -A perf/comparison_api.ts [--points 13739] [--repeats 5] [--requests 20]
 * [--memory-writes result|none]`
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { print } from "../lib/log.ts";
import {
  type HistoryWindow,
  loadCurves,
  modelHistory,
  registerLineFunctions,
  ResultsStore,
} from "../lib/store/mod.ts";
import { capture } from "../tests/lib/store/_capture.ts";
import { LONG_MODEL, seedLongHistory } from "../tests/lib/store/_long_history.ts";
import { fmtMs, medianOf, quantileOf } from "./_measure.ts";
import { serveWebApp } from "./_web.ts";
import { parseOptions } from "../lib/args.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    points: { type: "string", default: "13739" },
    repeats: { type: "string", default: "5" },
    requests: { type: "string", default: "20" },
    "memory-writes": { type: "string", default: "result" },
    serve: { type: "string" },
  },
});

// A finished result of the model's first line (model 1, REST, default parameters), as stored.
const APPEND = `INSERT INTO results (model_id, params_hash, backend, status, started_at,
    finished_at, params_json, tokens_per_sec_mean, tokens_per_sec_std, runs_ok)
  VALUES (1, 'h-default', 'rest', 'ok', ?1, ?1, '{}', 42 + random() % 3, 0.4, 5)`;

const PATHS: [string, HistoryWindow][] = [
  [`/api/comparison/${LONG_MODEL}`, { kind: "page", limit: 500, before: null }],
  [`/api/comparison/${LONG_MODEL}?per_line=400`, { kind: "downsampled", perLine: 400 }],
  [`/comparison?model=${encodeURIComponent(LONG_MODEL)}`, { kind: "downsampled", perLine: 400 }],
];

/** Child: serves the dashboard of `root` and prints its address; ends when stdin closes. */
async function serve(root: string): Promise<void> {
  await using served = await serveWebApp(root);
  print(served.base);
  for await (const _ of Deno.stdin.readable) { /* until the parent closes it */ }
}

/** The child's resident set size in MiB. */
async function rssMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)![1]) / 1024;
}

async function timeRequest(url: string): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const bytes = (await res.arrayBuffer()).byteLength;
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return { ms: performance.now() - t0, bytes };
}

/** The statements an answer runs, replayed through `node:sqlite`; returns the time. */
function peerRun(db: DatabaseSync, statements: { sql: string; args: unknown[] }[]): number {
  const t0 = performance.now();
  for (const s of statements) db.prepare(s.sql).all(...(s.args as SQLInputValue[]));
  return performance.now() - t0;
}

async function bench(): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "localbench-cmp-" });
  await Deno.mkdir(join(root, "data"), { recursive: true });
  const file = join(root, "data", "results.db");
  let minute = Date.UTC(2026, 0, 1);
  const store = ResultsStore.open(file, { now: () => new Date(minute += 60_000) });
  seedLongHistory(store, Number(values.points));
  store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  // What an answer after a new result runs: recorded on the second of two answers with a new
  // result between them (the first fills what the store keeps in memory, as the served app's
  // warm-up requests do).
  const scripts = PATHS.map(([, window]) => {
    const recorded = capture(store.db);
    modelHistory(recorded.db, LONG_MODEL, window);
    store.db.prepare(APPEND).run(new Date(minute += 60_000).toISOString());
    const from = recorded.statements.length;
    modelHistory(recorded.db, LONG_MODEL, window);
    loadCurves(recorded.db, LONG_MODEL);
    return recorded.statements.slice(from);
  });
  store.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, "--serve", root],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const base = (await lines.read()).value!.trim();
  const fresh = await rssMiB(child.pid);
  const peerDb = new DatabaseSync(file, { readOnly: true });
  registerLineFunctions(peerDb);
  const writer = new DatabaseSync(file, { timeout: 10_000 });
  const elsewhere = writer.prepare("UPDATE models SET last_seen = ? WHERE id = 1");
  const append = writer.prepare(APPEND);
  const write = () => append.run(new Date().toISOString());
  try {
    const repeats = Math.max(5, Number(values.repeats));
    const requests = Number(values.requests);
    const rows = PATHS.map(([path]) => ({
      path,
      all: [] as number[],
      other: [] as number[],
      kept: [] as number[],
      peer: [] as number[],
      bytes: 0,
    }));
    // Memory first, from the fresh process: 100 requests of the default page, each after a write.
    for (let k = 0; k < 100; k++) {
      if (values["memory-writes"] !== "none") write();
      await timeRequest(base + rows[0]!.path);
    }
    const hundred = await rssMiB(child.pid);
    for (const [i, row] of rows.entries()) {
      for (let k = 0; k < 3; k++) row.bytes = (await timeRequest(base + row.path)).bytes;
      peerRun(peerDb, scripts[i]!);
    }
    for (let round = 0; round < repeats; round++) {
      for (const [i, row] of rows.entries()) {
        for (let k = 0; k < requests; k++) {
          write();
          row.all.push((await timeRequest(base + row.path)).ms);
          elsewhere.run(new Date().toISOString());
          row.other.push((await timeRequest(base + row.path)).ms);
          row.kept.push((await timeRequest(base + row.path)).ms);
        }
        for (let k = 0; k < requests; k++) {
          write();
          row.peer.push(peerRun(peerDb, scripts[i]!));
        }
      }
    }
    for (let k = 0; k < 100; k++) for (const row of rows) await timeRequest(base + row.path);
    const after = await rssMiB(child.pid);
    print(`\n${values.points} points of ${LONG_MODEL}; ${repeats} rounds × ${requests} requests.`);
    print(
      "\n| path | after a new result: localbench p50 | p95 | node:sqlite p50 | p95 | " +
        "ratio of p50 | after a write elsewhere p50 | p95 | unchanged store p50 | p95 | bytes |",
    );
    print("|---|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      print(
        `| \`${r.path}\` | ${fmtMs(medianOf(r.all))} | ${fmtMs(quantileOf(r.all, 0.95))} | ` +
          `${fmtMs(medianOf(r.peer))} | ${fmtMs(quantileOf(r.peer, 0.95))} | ` +
          `${(medianOf(r.all) / medianOf(r.peer)).toFixed(1)}× | ${fmtMs(medianOf(r.other))} | ` +
          `${fmtMs(quantileOf(r.other, 0.95))} | ${fmtMs(medianOf(r.kept))} | ` +
          `${fmtMs(quantileOf(r.kept, 0.95))} | ${r.bytes} |`,
      );
    }
    print(
      `\nDashboard RSS: ${fresh.toFixed(0)} MiB fresh, ${hundred.toFixed(0)} MiB after 100 ` +
        `requests of the default page (${
          values["memory-writes"] === "none" ? "no writes" : "each after a new result"
        }; goal ≤ 150 MB), ${after.toFixed(0)} MiB after ` +
        `${3 * repeats * requests + 103} more requests of each path.`,
    );
  } finally {
    peerDb.close();
    writer.close();
    await child.stdin.close();
    await child.status;
    await Deno.remove(root, { recursive: true });
  }
}

if (values.serve) await serve(values.serve);
else await bench();
