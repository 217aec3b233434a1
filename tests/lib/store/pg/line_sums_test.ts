import assert from "node:assert/strict";
import { createRandom } from "../../../../lib/engine/prng.ts";
import { ensureColumns, MIGRATIONS, ResultsStore } from "../../../../lib/store/mod.ts";
import { transaction } from "../../../../lib/store/db.ts";
import { openPostgres } from "../../../../lib/store/pg/open.ts";
import { PG_BASELINE } from "../../../../lib/store/pg/schema.ts";
import { testPostgres } from "../../../_postgres.ts";
import { assertSame, DESK, fromScratch, kept, RACK } from "../_line_sums.ts";

// The triggers' cases run on both backends in tests/lib/store/line_sums_test.ts.

Deno.test({
  name: "a PostgreSQL store of schema 10 gets line_sums filled from its history when opened",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const url = await (await testPostgres()).createDatabase();
    const old = openPostgres(url);
    try {
      for (const m of MIGRATIONS.filter((m) => m.version >= PG_BASELINE && m.version <= 10)) {
        // A migration's transaction: the first makes store_changes, the write lock's row.
        transaction(old, () => {
          old.exec(m.pg!);
          m.pgApply?.(old);
        }, { writeLock: false });
      }
      old.exec(
        "INSERT INTO schema_version (id, version) VALUES (1, 10) ON CONFLICT (id) DO UPDATE SET version = 10",
      );
      ensureColumns(old);
      const now = new Date(0).toISOString();
      for (const [id, host] of [[DESK, "desk"], [RACK, "rack"]]) {
        old.prepare(
          `INSERT INTO machines (id, hostname, description_json, first_seen, last_seen)
           VALUES (?, ?, '{}', ?, ?)`,
        ).run(id!, host!, now, now);
      }
      for (const key of ["org/m@q4", "org/m@q8"]) {
        old.prepare(
          `INSERT INTO models (model_key, model_name, quantization, first_seen, last_seen)
           VALUES (?, 'org/m', ?, ?, ?)`,
        ).run(key, key.slice(-2), now, now);
      }
      const rng = createRandom(11);
      const insert = old.prepare(
        `INSERT INTO results (model_id, params_hash, backend, status, started_at, finished_at,
           params_json, machine_id, tokens_per_sec_mean, n_parallel, parallel_tokens_per_sec)
         VALUES (?, 'h', ?, ?, ?, ?, '{}', ?, ?, ?, ?)`,
      );
      for (let i = 0; i < 300; i++) {
        const r = rng.next();
        const at = new Date(i * 60_000).toISOString();
        insert.run(
          1 + (i % 2),
          i % 4 < 2 ? "sdk" : "rest",
          r < 0.1 ? "failed" : r < 0.2 ? "partial" : "ok",
          at,
          at,
          [null, DESK, RACK][Math.floor(i / 4) % 3]!,
          r > 0.9 ? null : Math.round(rng.next() * 5000) / 100,
          i % 7 === 0 ? 2 : 1,
          i % 7 === 0 ? 60 : null,
        );
      }
    } finally {
      old.close();
    }
    const store = ResultsStore.open(url);
    try {
      const rows = kept(store.db);
      assert.equal(rows.length, 2 * 2 * 3, "a line per variant, backend and machine");
      assertSame(rows, fromScratch(store.db), "migrated");
      assert.ok(rows.every((r) => r.stale === 0));
    } finally {
      store.close();
    }
  },
});
