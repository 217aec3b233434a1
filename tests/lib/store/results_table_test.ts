/**
 * The results table in columns (lib/store/results_table.ts) on both backends: the names once, a
 * row's values in their order, and a figure that is not a finite number sent as null on both
 * (PostgreSQL's JSON would write it as the string "Infinity").
 */
import assert from "node:assert/strict";
import { RESULTS_COLUMNS, resultsColumns } from "../../../lib/store/mod.ts";
import { rowsOf } from "../../../lib/shared/columns.ts";
import { eachBackend, openOn } from "./_backends.ts";

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
