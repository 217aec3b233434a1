import assert from "node:assert/strict";
import { ResultsStore } from "../../../../lib/store/mod.ts";
import { PG_SCHEMA } from "../../../../lib/store/pg/database.ts";
import { testPostgres } from "../../../_postgres.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

Deno.test(
  "a database holding other tables, one named results, is shared without a clash",
  opts,
  async () => {
    const pg = await testPostgres();
    const url = await pg.createDatabase();
    const db = new URL(url).pathname.slice(1);
    await pg.admin(
      db,
      "CREATE TABLE public.results (id int, note text); INSERT INTO public.results VALUES (1, 'theirs')",
    );
    await pg.admin(db, "ALTER TABLE public.results OWNER TO localbench");
    const store = ResultsStore.open(url);
    try {
      const id = store.beginResult({
        model: { model_key: "a@q", model_name: "a", quantization: "q" },
        params_hash: "h",
        backend: "rest",
        params: {},
      });
      store.finishResult(id, { status: "ok", aggregates: { tokens_per_sec_mean: 3 } });
      assert.equal(store.latestPerIdentity().length, 1);
    } finally {
      store.close();
    }
    const theirs = await pg.admin(db, "SELECT note FROM public.results");
    assert.deepEqual(theirs, [{ note: "theirs" }]);
    const ours = await pg.admin(db, `SELECT COUNT(*)::int AS n FROM ${PG_SCHEMA}.results`);
    assert.deepEqual(ours, [{ n: 1 }]);
  },
);

Deno.test("statements with placeholders of both kinds run with their arguments", opts, async () => {
  const pg = await testPostgres();
  const store = ResultsStore.open(await pg.createDatabase());
  try {
    const text = store.db.prepare("SELECT ':x' AS t, '?' AS q").get();
    assert.deepEqual(text, { t: ":x", q: "?" }, "quoted text keeps its ? and :name");
    const named = store.db.prepare("SELECT CAST(:a AS int) + CAST(:a AS int) AS s").get({ a: 4 });
    assert.deepEqual(named, { s: 8 });
    const positional = store.db.prepare("SELECT CAST(? AS text) || CAST(? AS text) AS s").get(
      "a",
      "b",
    );
    assert.deepEqual(positional, { s: "ab" });
    assert.equal(store.db.isTransaction, false);
    store.db.exec("BEGIN");
    assert.equal(store.db.isTransaction, true);
    store.db.exec("ROLLBACK");
    assert.equal(store.db.isTransaction, false);
  } finally {
    store.close();
  }
});

Deno.test(
  "a script opening a transaction whose later statement is refused leaves it open for the rollback",
  opts,
  async () => {
    const pg = await testPostgres();
    const store = ResultsStore.open(await pg.createDatabase());
    try {
      assert.throws(() => store.db.exec("BEGIN; SELECT 1 / 0"), /division by zero/);
      assert.equal(store.db.isTransaction, true);
      assert.throws(() => store.db.prepare("SELECT 1 AS x").get(), /aborted/);
      store.db.exec("ROLLBACK");
      assert.equal(store.db.isTransaction, false);
      assert.deepEqual(store.db.prepare("SELECT 1 AS x").get(), { x: 1 });
    } finally {
      store.close();
    }
  },
);
