/**
 * The cost of the store's reads does not grow with the history: every query of the dashboard,
 * the cache and the reports reaches the history only through a bounding key, in Deno's SQLite
 * (its query plans) and in Debian's sqlite3 shell (its counters).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { tempEnv } from "../../_helpers.ts";
import type { CapturedStatement } from "./_capture.ts";
import { seedHistory } from "./_history_seed.ts";
import {
  HISTORY_READERS,
  historyAccessProblems,
  planProblems,
  readEverything,
} from "./_plan_check.ts";

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

// The store's reads replayed in Debian's sqlite3 shell (another SQLite version than Deno's), with
// its per-statement counters: pages read and virtual-machine steps must not grow with the
// history. A derived `latest`, a per-row rescan or a count over the runs grows with it.

interface Cost {
  pages: number;
  steps: number;
}

/** Runs the statements in the sqlite3 shell with `.stats stmt`; one cost per statement. */
async function shellCosts(file: string, statements: CapturedStatement[]): Promise<Cost[]> {
  const script = [".stats stmt", ...statements.map((s) => `${s.expanded};`)].join("\n");
  let child;
  try {
    child = new Deno.Command("sqlite3", {
      args: ["-batch", "-readonly", file],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    throw new Error(`this test needs Debian's sqlite3 shell (tools/test_deps.sh installs it)`, {
      cause: err,
    });
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const text = new TextDecoder().decode(out.stdout);
  const num = (re: RegExp) => [...text.matchAll(re)].map((m) => Number(m[1]));
  const hits = num(/^Page cache hits:\s+(\d+)/gm);
  const misses = num(/^Page cache misses:\s+(\d+)/gm);
  const steps = num(/^Virtual Machine Steps:\s+(\d+)/gm);
  assert.equal(steps.length, statements.length, "one block of counters per statement");
  return steps.map((s, i) => ({ pages: hits[i]! + misses[i]!, steps: s }));
}

function seededFile(
  dir: string,
  runs: number,
): { file: string; statements: CapturedStatement[] } {
  const file = join(dir, `history-${runs}.db`);
  const store = ResultsStore.open(file);
  try {
    seedHistory(store.db, { runs, variants: 40 });
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const statements = readEverything(store).filter((s) => !HISTORY_READERS.has(s.reader));
    return { file, statements };
  } finally {
    store.close();
  }
}

Deno.test("with eight times the history, the store's reads cost the same pages and steps in the sqlite3 shell", async () => {
  await using t = await tempEnv();
  const small = seededFile(t.root, 3_000);
  const large = seededFile(t.root, 24_000);
  assert.deepEqual(large.statements.map((s) => s.sql), small.statements.map((s) => s.sql));
  const a = await shellCosts(small.file, small.statements);
  const b = await shellCosts(large.file, large.statements);
  const grown = small.statements.flatMap((s, i) => {
    const [x, y] = [a[i]!, b[i]!];
    // Deeper B-trees add a page or two per seek; a walk over the history grows eightfold.
    return y.pages > 2 * x.pages + 20 || y.steps > 2 * x.steps + 50
      ? [
        `${x.pages} → ${y.pages} pages, ${x.steps} → ${y.steps} steps: ${
          s.sql.replace(/\s+/g, " ").slice(0, 120)
        }`,
      ]
      : [];
  });
  assert.deepEqual(grown, []);
});
