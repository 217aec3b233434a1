/**
 * Dashboard API benchmark on a PostgreSQL store (issue 30.3): `GET /api/results` and
 * `GET /api/dashboard/stats` with 1 000 000 stored runs, beside the same SQL in `psql`.
 *
 * Method
 * - Server: a PostgreSQL 15 cluster of its own (tests/_postgres.ts: `initdb` in a temporary
 *   folder, a free loopback port, default settings), a fresh database migrated by localbench, then
 *   filled in bulk (tests/lib/store/_pg_history_seed.ts: `--variants` variants, four machines, results of 10–50
 *   runs, `--runs` runs).
 * - localbench: the dashboard (createWebApp with `store: URL`) served by `Deno.serve` on
 *   127.0.0.1, requests sent with `fetch` one at a time, from sending to the last body byte.
 *   Before each measured request a second connection commits a write, so the answer is
 *   computed, not served from the snapshot; the p95 of requests to an unchanged store (the
 *   snapshot: one `SELECT n FROM store_changes`) is printed beside it. The writes (column
 *   `after`): a variant's `last_seen` (no result changed: what a benchmark's start writes); for
 *   `/api/results` also a new finished result of one identity (its figures alone are fetched,
 *   lib/store/result_figures.ts), and a cold request: `result_edits` bumped with the variant's
 *   write, which empties the process's cache of results' figures as an edited result would, so
 *   every figure is read again (a fresh process's first request).
 * - Peer: the statements the endpoint ran after the same write, with the state a process keeps
 *   between requests (recorded from the store's own calls, translated to PostgreSQL's text,
 *   values inlined), in one `psql` session with `\timing on`; a peer sample is the sum of the
 *   statements' times of one execution (client-side, over the loopback socket). The results
 *   table: one statement of the identities' ids, the variants and the machines as JSON, and one
 *   of the figures of the results not kept (none after a variant's write; lib/store/
 *   results_table.ts); the statistics: one pass (lib/store/dashboard_stats.ts).
 * - `bytes`: the JSON body (sent gzip-compressed, once per state of the store).
 * - `--requests` measured requests per path (3 unmeasured first) and as many peer executions.
 *   Goal: p95 ≤ 50 ms.
 *
 * Run: `deno run -A perf/dashboard_api_postgres.ts [--runs 1000000] [--variants 150]
 * [--requests 100]` (needs Debian's `postgresql` package, as the PostgreSQL tests).
 *
 * @module
 */
import pg from "pg";
import { print } from "../lib/log.ts";
import { dashboardStats, resultsColumns } from "../lib/store/dashboard.ts";
import type { StoreDb } from "../lib/store/database.ts";
import { ResultFiguresCache } from "../lib/store/result_figures.ts";
import { ResultsStore } from "../lib/store/mod.ts";
import { parseOptions } from "../lib/args.ts";
import { testPostgres } from "../tests/_postgres.ts";
import { seedPostgres } from "../tests/lib/store/_pg_history_seed.ts";
import { recordPg } from "../tests/lib/store/_capture_pg.ts";
import { fmtMs, medianOf, quantileOf } from "./_measure.ts";
import { serveWebApp } from "./_web.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "1000000" },
    variants: { type: "string", default: "150" },
    requests: { type: "string", default: "100" },
    explain: { type: "boolean", default: false },
  },
});
const RUNS = Number(values.runs);
const REQUESTS = Number(values.requests);

/** A kind of write committed by another connection before each measured request. */
interface Case {
  path: "/api/results" | "/api/dashboard/stats";
  /** What the request follows. */
  after: string;
  /** The write (another connection). */
  write: (other: pg.Client) => Promise<unknown>;
  /** The endpoint's reads, with the state a process keeps between requests (`keep`). */
  read: (db: StoreDb, keep: ResultFiguresCache) => unknown;
}

/** A variant's `last_seen` written: no result changed (the common write: a benchmark starts). */
const touchModel = (other: pg.Client) =>
  other.query("UPDATE localbench.models SET last_seen = $1 WHERE id = 1", [
    new Date().toISOString(),
  ]);

/** A new finished result of one identity (a copy of its newest, 1 % faster). */
const newResult = (other: pg.Client) =>
  other.query(`INSERT INTO localbench.results (model_id, params_hash, backend, status, started_at,
      finished_at, params_json, machine_id, runs_ok, tokens_per_sec_mean, tokens_per_sec_std,
      tokens_per_sec_n)
    SELECT model_id, params_hash, backend, 'ok', started_at, finished_at, params_json,
      machine_id, runs_ok, tokens_per_sec_mean * 1.01, tokens_per_sec_std, tokens_per_sec_n
    FROM localbench.results WHERE id = (SELECT result_id FROM localbench.identity_latest
      ORDER BY model_id, params_hash, machine_key LIMIT 1)`);

/**
 * A finished result's figures counted as edited (schema 13's `result_edits`): the process's
 * cache of results' figures is emptied, so the request reads as a fresh process's first one.
 */
const coldCache = (other: pg.Client) =>
  // With a variant's write, as an edit of a result (a counted table) would make one.
  other.query(`BEGIN; UPDATE localbench.result_edits SET n = n + 1 WHERE id = 1;
    UPDATE localbench.models SET last_seen = '${new Date().toISOString()}' WHERE id = 1; COMMIT`);

const CASES: Case[] = [
  {
    path: "/api/results",
    after: "a variant's last_seen",
    write: touchModel,
    read: (db, keep) => resultsColumns(db, keep),
  },
  {
    path: "/api/results",
    after: "a new result of one identity",
    write: newResult,
    read: (db, keep) => resultsColumns(db, keep),
  },
  {
    path: "/api/results",
    after: "cache emptied (cold)",
    write: coldCache,
    read: (db) => resultsColumns(db, new ResultFiguresCache()),
  },
  {
    path: "/api/dashboard/stats",
    after: "a variant's last_seen",
    write: touchModel,
    read: (db, keep) => dashboardStats(db, keep),
  },
];

/** `count` executions of `statements` in one psql session; the summed time of each. */
async function psqlPeer(url: string, statements: string[], count: number): Promise<number[]> {
  const script = ["\\timing on", "SET search_path TO localbench;"];
  for (let i = 0; i < count; i++) {
    script.push("\\echo ---", ...statements.map((s) => `${s};`));
  }
  const out = await new Deno.Command("/usr/lib/postgresql/15/bin/psql", {
    args: ["-X", "-q", "-o", "/dev/null", "-d", url],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = out.stdin.getWriter();
  await w.write(new TextEncoder().encode(script.join("\n") + "\n"));
  await w.close();
  const res = await out.output();
  const text = new TextDecoder().decode(res.stdout);
  if (!res.success) throw new Error(`psql failed: ${new TextDecoder().decode(res.stderr)}`);
  const samples: number[] = [];
  for (const part of text.split("---\n").slice(1)) {
    const times = [...part.matchAll(/^Time: ([\d.]+) ms/gm)].map((m) => Number(m[1]));
    samples.push(times.reduce((a, b) => a + b, 0));
  }
  return samples;
}

/** Prints PostgreSQL's plan of each statement, as run (`--explain`). */
async function explain(url: string, statements: string[]): Promise<void> {
  const script = [
    "SET search_path TO localbench;",
    ...statements.map((s) => `EXPLAIN ANALYZE ${s};`),
  ];
  const res = await new Deno.Command("/usr/lib/postgresql/15/bin/psql", {
    args: ["-X", "-q", "-d", url, "-c", script.join("\n")],
    stdout: "piped",
  }).output();
  print(new TextDecoder().decode(res.stdout));
}

async function timeRequest(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - t0;
}

const cluster = await testPostgres();
const dbUrl = await cluster.createDatabase("perf");
ResultsStore.open(dbUrl).close();
const t0 = performance.now();
const seeded = await seedPostgres((sql) => cluster.admin("perf", sql), {
  runs: RUNS,
  variants: Number(values.variants),
});
print(
  `Seeded ${seeded.runs} runs in ${seeded.results} results of ${seeded.variants} variants ` +
    `in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
print(
  `Load average (1, 5, 15 min) at the start: ${Deno.loadavg().map((v) => v.toFixed(2)).join(", ")}`,
);
const root = await Deno.makeTempDir({ prefix: "localbench-bench-" });
const served = await serveWebApp(root, dbUrl);
const other = new pg.Client({ connectionString: dbUrl });
await other.connect();
const recorder = ResultsStore.open(dbUrl);
print(
  "\n| path | after | localbench p95 | median | psql p95 | psql median | unchanged store p95 | bytes |",
);
print("|---|---|---|---|---|---|---|---|");
try {
  for (const c of CASES) {
    const url = `${served.base}${c.path}`;
    const bytes = (await (await fetch(url)).arrayBuffer()).byteLength;
    for (let i = 0; i < 3; i++) await timeRequest(url);
    const all: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      await c.write(other);
      all.push(await timeRequest(url));
      cached.push(await timeRequest(url));
    }
    // The peer: the statements the endpoint runs after this write, with the state it keeps.
    const keep = new ResultFiguresCache();
    c.read(recorder.db, keep);
    await c.write(other);
    const statements = recordPg(recorder.db, (db) => c.read(db, keep));
    if (values.explain) await explain(dbUrl, statements);
    const peer = await psqlPeer(dbUrl, statements, REQUESTS);
    print(
      `| \`${c.path}\` | ${c.after} | ${fmtMs(quantileOf(all, 0.95))} | ${
        fmtMs(medianOf(all))
      } | ` +
        `${fmtMs(quantileOf(peer, 0.95))} | ${fmtMs(medianOf(peer))} | ` +
        `${fmtMs(quantileOf(cached, 0.95))} | ${bytes} |`,
    );
  }
} finally {
  recorder.close();
  await other.end();
  await served[Symbol.asyncDispose]();
  await Deno.remove(root, { recursive: true });
}
print(
  `\n${REQUESTS} requests per path (after 3 unmeasured); each after a write from another connection.`,
);
// The machine's load says how far the figures are from a quiet machine's (shared build hosts).
print(
  `Load average (1, 5, 15 min) at the end: ${Deno.loadavg().map((v) => v.toFixed(2)).join(", ")}`,
);
Deno.exit(0);
