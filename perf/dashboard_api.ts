/**
 * Dashboard API benchmark: `GET /api/results` and `GET /api/dashboard/stats` over HTTP at 1 000,
 * 100 000 and 1 000 000 stored runs, against the same SQL in Debian's `sqlite3` shell.
 *
 * Method
 * - Store: a results database seeded with a realistic history (tests/lib/store/_history_seed.ts):
 *   150 model variants whatever the size (Zipf-like popularity: a few variants retested often),
 *   results interleaved in time, 10% failed or stopped, 4 parameter sets per variant, 3–10 runs
 *   per result; `--variants` changes the count.
 * - localbench: the web app served by `Deno.serve` on 127.0.0.1 (a free port), requests sent with
 *   `fetch` one at a time; the time is from sending to the last body byte. Before each measured
 *   request a second connection commits a write (as the benchmark does after every run), so
 *   the answer is computed, not served from the app's per-store-state snapshot; the p95 of
 *   requests to an unchanged store (the snapshot) is printed beside it.
 * - Peer: the SQL the endpoint ran (recorded from the store's own calls, values filled in),
 *   replayed with `sqlite3 -batch -readonly <db>` (process start, open, the statements, output to
 *   a pipe): what the endpoint would cost as a plain SQLite client.
 * - Repeats: `--repeats` (≥ 5) rounds, each running `--requests` requests of every path and as
 *   many peer runs, interleaved path by path; 3 unmeasured warm-up requests first. Printed per
 *   size and path: localbench p95 and median over all requests, the min and median of the
 *   per-round medians, the peer's median and min, and the ratio of the medians. Goal: p95 ≤ 50 ms.
 * - Also printed: the JavaScript the Home view ships (boot script, islands and their chunks), raw
 *   and gzipped.
 *
 * Needs the `sqlite3` shell (`apt-get install sqlite3`; tools/test_deps.sh installs it).
 *
 * Run: `deno run -A perf/dashboard_api.ts [--sizes 1000,100000,1000000] [--variants 150]
 * [--repeats 5] [--requests 20]`
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ISLANDS_DIR } from "../lib/http/fw/bundles.ts";
import { print } from "../lib/log.ts";
import { dashboardStats, resultsTable } from "../lib/store/dashboard.ts";
import { ResultsStore } from "../lib/store/mod.ts";
import { capture } from "../tests/lib/store/_capture.ts";
import { seedHistory } from "../tests/lib/store/_history_seed.ts";
import { REPO_STATIC_DIR } from "../app/mod.ts";
import { pageJavaScript } from "./_home_js.ts";
import { fmtMs, medianOf, minOf, quantileOf, sqlite3Peer } from "./_measure.ts";
import { serveWebApp } from "./_web.ts";
import { parseOptions } from "../lib/args.ts";

const { values } = parseOptions({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "1000,100000,1000000" },
    variants: { type: "string", default: "150" },
    repeats: { type: "string", default: "5" },
    requests: { type: "string", default: "20" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const VARIANTS = Number(values.variants);
const REPEATS = Math.max(5, Number(values.repeats));
const REQUESTS = Number(values.requests);

const PATHS = {
  "/api/results": resultsTable,
  "/api/dashboard/stats": dashboardStats,
} as const;
type ApiPath = keyof typeof PATHS;

/** The SQL script an endpoint runs, values filled in. */
function sqlOf(store: ResultsStore, path: ApiPath): string {
  const recorded = capture(store.db);
  PATHS[path](recorded.db);
  return recorded.statements.map((s) => `${s.expanded};`).join("\n");
}

async function timeRequest(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - t0;
}

interface Row {
  size: number;
  path: ApiPath;
  all: number[];
  rounds: number[];
  peer: number[];
  cached: number[];
  bytes: number;
}

/** A write from another connection: the store's state changes, its answers do not. */
function writer(file: string): { write(): void; close(): void } {
  const db = new DatabaseSync(file, { timeout: 10_000 });
  const stmt = db.prepare("UPDATE models SET last_seen = ? WHERE id = 1");
  return { write: () => void stmt.run(new Date().toISOString()), close: () => db.close() };
}

async function benchSize(runs: number): Promise<{ rows: Row[]; home: string }> {
  const root = await Deno.makeTempDir({ prefix: "localbench-bench-" });
  await Deno.mkdir(join(root, "data"), { recursive: true });
  const dbFile = join(root, "data", "results.db");
  const seeding = ResultsStore.open(dbFile);
  const seeded = seedHistory(seeding.db, { runs, variants: VARIANTS });
  seeding.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  seeding.close();
  print(
    `\n${runs} runs: ${seeded.variants} variants, ${seeded.results} results ` +
      `(${seeded.okResults} finished)`,
  );
  const served = await serveWebApp(root);
  const { web, base } = served;
  const other = writer(dbFile);
  try {
    const rows: Row[] = [];
    for (const path of Object.keys(PATHS) as ApiPath[]) {
      const res = await fetch(`${base}${path}`);
      const bytes = (await res.arrayBuffer()).byteLength;
      for (let i = 0; i < 2; i++) await timeRequest(`${base}${path}`);
      rows.push({ size: runs, path, all: [], rounds: [], peer: [], cached: [], bytes });
    }
    const scripts = new Map(rows.map((r) => [r.path, sqlOf(web.store, r.path)]));
    for (let round = 0; round < REPEATS; round++) {
      for (const row of rows) {
        const times: number[] = [];
        for (let i = 0; i < REQUESTS; i++) {
          other.write();
          times.push(await timeRequest(`${base}${row.path}`));
          row.cached.push(await timeRequest(`${base}${row.path}`));
        }
        row.all.push(...times);
        row.rounds.push(medianOf(times));
        for (let i = 0; i < REQUESTS; i++) {
          row.peer.push(await sqlite3Peer(dbFile, scripts.get(row.path)!));
        }
      }
    }
    const home = await (await fetch(`${base}/`)).text();
    return { rows, home };
  } finally {
    other.close();
    await served[Symbol.asyncDispose]();
    await Deno.remove(root, { recursive: true });
  }
}

function report(rows: Row[]): void {
  print(
    "\n| stored runs | path | localbench p95 | median | min of round medians | " +
      "sqlite3 shell median (min) | ratio | unchanged store p95 | bytes |",
  );
  print("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    print(
      `| ${r.size.toLocaleString("en")} | \`${r.path}\` | ${fmtMs(quantileOf(r.all, 0.95))} | ` +
        `${fmtMs(medianOf(r.all))} | ${fmtMs(minOf(r.rounds))} | ` +
        `${fmtMs(medianOf(r.peer))} (${fmtMs(minOf(r.peer))}) | ` +
        `${(medianOf(r.all) / medianOf(r.peer)).toFixed(2)}× | ` +
        `${fmtMs(quantileOf(r.cached, 0.95))} | ${r.bytes} |`,
    );
  }
}

const rows: Row[] = [];
let home = "";
for (const size of SIZES) {
  const out = await benchSize(size);
  rows.push(...out.rows);
  home = out.home;
}
print(`\n${REPEATS} interleaved rounds × ${REQUESTS} requests per path and size.`);
report(rows);
const js = await pageJavaScript(join(REPO_STATIC_DIR, ISLANDS_DIR), home);
print(
  `\nHome view JavaScript: ${js.files.length} files, ${js.bytes} bytes, ${js.gzip} gzipped ` +
    `(${js.files.join(", ")})`,
);
