/**
 * Four benchmark processes (`cli.ts` with the permissions of `deno task bench`) writing to one
 * PostgreSQL store at once, all started together on a fresh database so they also race its
 * migration (issue 30.3): none fails, none deadlocks, and the store holds every run each of them
 * measured, with `totals` and `identity_latest` equal to a recount from scratch.
 */
import assert from "node:assert/strict";
import { programPermissions, runDeno, tempEnv } from "../_helpers.ts";
import { testPostgres } from "../_postgres.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";

const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];
const opts = { sanitizeResources: false, sanitizeOps: false };
/** qwen3-4b's two quantizations, ministral-3-3b and deepseek-r1: four variants per process. */
const MODELS = "qwen3-4b|ministral-3-3b|deepseek-r1";
const VARIANTS = 4;
/** Each process asks for a different number of runs, so a result's run count names its process. */
const RUNS = [2, 3, 4, 5];

type Row = Record<string, unknown>;

Deno.test(
  "four benchmark processes writing to one fresh PostgreSQL store at once lose no run and never deadlock",
  opts,
  async () => {
    await using env = await tempEnv();
    const pg = await testPostgres();
    const url = await pg.createDatabase();
    const db = new URL(url).pathname.slice(1);
    // One LM Studio double per process (four machines' servers), so that a model loaded by one
    // process is never unloaded under another: only the store is shared.
    const doubles = await Promise.all(RUNS.map(() => startLmStudioDouble({ port: 0 })));
    try {
      const outs = await Promise.all(RUNS.map((runs, i) =>
        runDeno([
          ...BENCH,
          ...["--backend", "rest", "--base-url", doubles[i]!.url, "--n-parallel", "1"],
          ...["--runs", String(runs), "--include-models", MODELS, "--retest"],
          ...["--store", url],
        ], { env: env.vars })
      ));
      for (const [i, r] of outs.entries()) {
        const all = `${r.stdout}\n${r.stderr}`;
        assert.equal(r.code, 0, `process ${i} failed:\n${r.stderr}`);
        assert.doesNotMatch(all, /deadlock|could not serialize|40P01|40001/i, all);
        assert.match(r.stderr, new RegExp(`Done in \\d+s: ${VARIANTS} measured, 0 failed`));
      }
      const q = (sql: string) => pg.admin(db, sql);
      const results = await q(
        `SELECT s.id, s.status, COUNT(r.id)::int AS runs,
           COUNT(DISTINCT r.run_index)::int AS indexes, MIN(r.run_index)::int AS first
         FROM localbench.results s LEFT JOIN localbench.runs r ON r.result_id = s.id
         GROUP BY s.id, s.status ORDER BY s.id`,
      );
      assert.equal(results.length, RUNS.length * VARIANTS, JSON.stringify(results));
      assert.deepEqual(results.filter((r) => r.status !== "ok"), [], "nothing half-written");
      for (const runs of RUNS) {
        const mine = results.filter((r) => r.runs === runs);
        assert.equal(mine.length, VARIANTS, `${VARIANTS} results of ${runs} runs`);
        for (const r of mine) assert.equal(r.indexes, runs, "distinct run indexes");
      }
      const sum = RUNS.reduce((a, b) => a + b, 0) * VARIANTS;
      const [totals] = await q(
        "SELECT runs::int AS kept, (SELECT COUNT(*)::int FROM localbench.runs) AS counted FROM localbench.totals",
      );
      assert.deepEqual(totals, { kept: sum, counted: sum });
      const norm = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).sort();
      const kept = await q(
        `SELECT model_id::int, params_hash, machine_key, result_id::int, ok_results::int
         FROM localbench.identity_latest`,
      );
      const recount = await q(
        `SELECT model_id::int, params_hash, COALESCE(machine_id, '') AS machine_key,
           MAX(id)::int AS result_id, COUNT(*)::int AS ok_results
         FROM localbench.results WHERE status IN ('ok', 'partial')
         GROUP BY model_id, params_hash, COALESCE(machine_id, '')`,
      );
      assert.deepEqual(norm(kept), norm(recount), "identity_latest equals a recount");
      const [models] = await q("SELECT COUNT(*)::int AS n FROM localbench.models");
      assert.equal(models!.n, VARIANTS, "one row per variant, whoever inserted it first");
      const [version] = await q("SELECT COUNT(*)::int AS n FROM localbench.schema_version");
      assert.equal(version!.n, 1);
    } finally {
      await Promise.all(doubles.map((d) => d.close()));
    }
  },
);
