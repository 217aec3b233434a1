/**
 * The results table in columns (lib/store/results_table.ts) on both backends: the names once, a
 * row's values in their order, and a figure that is not a finite number sent as null on both
 * (PostgreSQL's JSON would write it as the string "Infinity"); the change rounded as the server's
 * statement of schema 12 rounded it.
 */
import assert from "node:assert/strict";
import { RESULTS_COLUMNS, resultsColumns } from "../../../lib/store/mod.ts";
import { roundPercent } from "../../../lib/store/results_table.ts";
import { rowsOf } from "../../../lib/shared/columns.ts";
import { BACKENDS, eachBackend, openOn } from "./_backends.ts";

eachBackend(
  "the results table comes in columns, a figure that is not finite as null",
  async (b) => {
    const store = await openOn(b);
    try {
      const model = { model_key: "org/m@q4", model_name: "org/m", quantization: "q4" };
      for (const [mean, perGb] of [[40, 4], [44, Infinity]] as [number, number][]) {
        const id = store.beginResult({ model, params_hash: "h", backend: "rest", params: {} });
        store.finishResult(id, {
          status: "ok",
          aggregates: { tokens_per_sec_mean: mean, tokens_per_sec_per_gb: perGb, runs_ok: 3 },
        });
      }
      const table = resultsColumns(store.db);
      assert.deepEqual(table.columns, RESULTS_COLUMNS);
      assert.equal(table.rows.length, 1);
      const [row] = rowsOf(table);
      assert.deepEqual(
        [row!.tokens_per_sec_mean, row!.prev_tokens_per_sec, row!.speed_delta_pct],
        [44, 40, 10],
      );
      assert.equal(row!.tokens_per_sec_per_gb, null);
      assert.equal(row!.result_count, 2);
    } finally {
      store.close();
    }
  },
);

Deno.test({
  name: "the change is rounded as PostgreSQL's ROUND(CAST(x AS NUMERIC), 2) rounds it",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const store = await openOn(BACKENDS.find((b) => b.name === "postgres")!);
    try {
      // Random speeds, and pairs whose change ends in a 5 at the third decimal (the ties).
      const pairs: [number, number][] = [];
      for (let i = 0; i < 3000; i++) {
        const p = Math.random() * 10 ** (Math.floor(Math.random() * 8) - 3);
        pairs.push([p * (0.2 + Math.random() * 2), p]);
        pairs.push([(100 + Math.floor(Math.random() * 20000) / 100 + 0.005) / 100 * 7, 7]);
      }
      pairs.push([1e-300, 1e300], [5e15, 1], [-1, 3], [1.00005 * 3, 3], [0.0000001, 1e-10]);
      const row = store.db.prepare(
        `SELECT CAST(json_agg(CAST(ROUND(CAST((CAST(e->>0 AS DOUBLE PRECISION)
           - CAST(e->>1 AS DOUBLE PRECISION)) * 100.0 / CAST(e->>1 AS DOUBLE PRECISION)
           AS NUMERIC), 2) AS TEXT)) AS TEXT) AS body
         FROM json_array_elements(CAST(? AS json)) WITH ORDINALITY AS t(e, i)`,
      ).get(JSON.stringify(pairs));
      const server = (JSON.parse(String(row!.body)) as string[]).map(Number);
      const ours = pairs.map(([r, p]) => roundPercent((r - p) * 100.0 / p));
      const differ = pairs.flatMap((pair, i) =>
        ours[i] === server[i] ? [] : [[pair, ours[i], server[i]]]
      );
      assert.deepEqual(differ, []);
    } finally {
      store.close();
    }
  },
});
