/**
 * The dashboard's reads on a PostgreSQL store do not grow with the history: in PostgreSQL's own
 * plans (EXPLAIN, on a store of 100 000 runs, analysed) `/api/results` and
 * `/api/dashboard/stats` never scan `results` or `runs` — the rule tests/lib/store/plans_test.ts
 * checks on SQLite — and, run (EXPLAIN ANALYZE), reach `results` once per identity at most by its
 * primary key, never by searching an identity's history per row; the statistics are one
 * statement (issue 30.3: their p95 at 1 M runs, perf/dashboard_api_postgres.ts).
 */
import assert from "node:assert/strict";
import { dashboardStats, resultsTable } from "../../../lib/store/dashboard.ts";
import type { StoreDb } from "../../../lib/store/database.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { testPostgres } from "../../_postgres.ts";
import { recordPg } from "./_capture_pg.ts";
import { seedPostgres } from "./_pg_history_seed.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/**
 * The nodes that read `results` more than once (a loop per row) other than by its primary key:
 * a per-row search of an identity's history (what the previous result's lookup was before
 * schema 12), as `relation/node type/index × loops`.
 */
function rescans(node: PlanNode): string[] {
  const loops = node["Actual Loops"] ?? 1;
  const own = node["Relation Name"] === "results" && loops > 1 &&
      node["Index Name"] !== "results_pkey"
    ? [`results/${node["Node Type"]}/${node["Index Name"] ?? "-"} × ${loops}`]
    : [];
  return [...own, ...(node.Plans ?? []).flatMap(rescans)];
}

/** The history tables a plan reads by a sequential scan. */
function scans(node: PlanNode): string[] {
  const own =
    node["Node Type"] === "Seq Scan" && ["results", "runs"].includes(node["Relation Name"] ?? "")
      ? [node["Relation Name"]!]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(scans)];
}

Deno.test(
  "the results table and the dashboard statistics on PostgreSQL never scan the history nor search it per row",
  opts,
  async () => {
    const pg = await testPostgres();
    const url = await pg.createDatabase();
    const name = new URL(url).pathname.slice(1);
    ResultsStore.open(url).close();
    const seeded = await seedPostgres((sql) => pg.admin(name, sql), {
      runs: 100_000,
      variants: 40,
    });
    assert.ok(seeded.results > 3000, `only ${seeded.results} results`);
    const store = ResultsStore.open(url);
    try {
      const found: Record<string, string[]> = {};
      for (const fn of [resultsTable, dashboardStats] as ((db: StoreDb) => unknown)[]) {
        const statements = recordPg(store.db, fn);
        assert.ok(statements.length >= 1);
        for (const sql of statements) {
          const [row] = store.db.prepare(`EXPLAIN (FORMAT JSON) ${sql}`).all();
          const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
          const read = scans(plan);
          if (read.length > 0) found[sql.slice(0, 200)] = read;
        }
      }
      assert.deepEqual(found, {});
      // The statistics are the runs' total and the results table's read (a cold one here: each
      // recording is a new connection to its cache): nothing of the history besides.
      assert.deepEqual(recordPg(store.db, dashboardStats), [
        "SELECT runs FROM totals WHERE id = 1",
        ...recordPg(store.db, resultsTable),
      ]);
      const perRow: Record<string, string[]> = {};
      for (const fn of [resultsTable, dashboardStats] as ((db: StoreDb) => unknown)[]) {
        for (const sql of recordPg(store.db, fn)) {
          const [row] = store.db.prepare(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`).all();
          const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
          const read = rescans(plan);
          if (read.length > 0) perRow[sql.slice(0, 200)] = read;
        }
      }
      assert.deepEqual(perRow, {});
    } finally {
      store.close();
    }
  },
);
