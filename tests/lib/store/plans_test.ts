import assert from "node:assert/strict";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { seedHistory } from "./_history_seed.ts";
import { historyAccessProblems, planProblems, readEverything } from "./_plan_check.ts";

function seeded(runs: number): ResultsStore {
  const store = ResultsStore.open(":memory:");
  seedHistory(store.db, { runs, variants: 40 });
  return store;
}

Deno.test("the dashboard, cache and report queries reach the history only through a bounding key", () => {
  const store = seeded(6_000);
  try {
    const statements = readEverything(store);
    assert.ok(statements.length >= 15, `only ${statements.length} statements were recorded`);
    assert.deepEqual(planProblems(store.db, statements), []);
    store.db.exec("ANALYZE");
    assert.deepEqual(planProblems(store.db, readEverything(store)), [], "after ANALYZE");
  } finally {
    store.close();
  }
});

Deno.test("the plan check catches a derived latest, a per-row rescan and a count over the runs", () => {
  const store = seeded(2_000);
  try {
    const derived = `WITH latest AS (SELECT x.* FROM results x JOIN (SELECT model_id, MAX(id) AS id
        FROM results WHERE status = 'ok' GROUP BY model_id) l ON l.id = x.id)
      SELECT m.model_key, r.tokens_per_sec_mean FROM latest r JOIN models m ON m.id = r.model_id`;
    const rescan = `SELECT m.model_key, (SELECT COUNT(*) FROM results x WHERE x.status = 'ok'
        AND x.tokens_per_sec_mean > 0) AS n FROM models m`;
    for (const sql of [derived, rescan, "SELECT COUNT(*) FROM runs"]) {
      const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail);
      assert.notDeepEqual(historyAccessProblems(sql, plan), [], sql);
    }
    assert.throws(
      () => historyAccessProblems("SELECT * FROM latest r JOIN results r ON 1", []),
      /alias 'r' names both/,
    );
  } finally {
    store.close();
  }
});
