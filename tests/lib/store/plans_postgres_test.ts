/**
 * The dashboard's reads on a PostgreSQL store do not grow with the history: in PostgreSQL's own
 * plans (EXPLAIN, on a store of 100 000 runs, analysed) `/api/results` and
 * `/api/dashboard/stats` never scan `results` or `runs` — the rule tests/lib/store/plans_test.ts
 * checks on SQLite (issue 30.3).
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
  Plans?: PlanNode[];
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
  "the results table and the dashboard statistics on PostgreSQL never scan the history",
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
    } finally {
      store.close();
    }
  },
);
