import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { historyDownsampled } from "../../../lib/store/history_points.ts";
import { downsampleLine } from "../../../lib/store/downsample.ts";
import { refreshStaleLines } from "../../../lib/store/line_sums.ts";
import { LONG_MODEL, seedLongHistory } from "./_long_history.ts";

const PER_LINE = 40;

/** The ids every line keeps, downsampled from the results as they are now (no kept state). */
function fromScratch(db: DatabaseSync): number[] {
  const lines = new Map<string, { ids: number[]; ys: (number | null)[] }>();
  const rows = db.prepare(
    `SELECT r.id, r.tokens_per_sec_mean AS y, r.model_id, r.backend, r.params_hash, r.machine_id
     FROM results r JOIN models m ON m.id = r.model_id
     WHERE m.model_name = ? AND r.status IN ('ok', 'partial') ORDER BY r.id`,
  ).all(LONG_MODEL) as { id: number; y: number | null; [k: string]: unknown }[];
  for (const r of rows) {
    const key = [r.model_id, r.backend, r.params_hash, r.machine_id].join("|");
    const line = lines.get(key) ?? { ids: [], ys: [] };
    lines.set(key, line);
    line.ids.push(r.id);
    line.ys.push(r.y);
  }
  return [...lines.values()]
    .flatMap((l) => downsampleLine(l.ys, PER_LINE).map((i) => l.ids[i]!))
    .sort((a, b) => a - b);
}

Deno.test("the downsampled points stay the ones picked from scratch through appends, deletes, out-of-order results and changed speeds", async () => {
  const dir = await Deno.makeTempDir({ prefix: "localbench-points-" });
  const file = join(dir, "results.db");
  const store = ResultsStore.open(file);
  const writer = new DatabaseSync(file, { timeout: 5_000 });
  try {
    seedLongHistory(store, 400);
    const append = writer.prepare(
      `INSERT INTO results (model_id, params_hash, backend, status, started_at, finished_at,
         params_json, tokens_per_sec_mean, runs_ok)
       VALUES (1, 'h-default', 'rest', ?, '2026-02-01', '2026-02-01', '{}', ?, 5) RETURNING id`,
    );
    const check = (what: string) =>
      assert.deepEqual(
        historyDownsampled(store.db, LONG_MODEL, PER_LINE).map((p) => p.id),
        fromScratch(writer),
        what,
      );
    check("at first");
    for (let i = 0; i < 30; i++) {
      append.get("ok", i % 7 === 3 ? null : 30 + (i * 37) % 50); // new extremes among them
      check(`after append ${i + 1}`);
    }
    // One more: only the new result is read, the line's other points are the kept ones.
    const db = store.db as unknown as { prepare: (sql: string) => unknown };
    const prepare = db.prepare.bind(db);
    const reads: string[] = [];
    db.prepare = (sql: string) => {
      if (/tokens_per_sec_mean FROM results r/.test(sql)) reads.push(sql);
      return prepare(sql);
    };
    append.get("ok", 42);
    check("after one more append");
    delete (db as { prepare?: unknown }).prepare;
    assert.equal(reads.length, 1, reads.join("\n"));
    assert.match(reads[0]!, /r\.id > :after/);
    const running = Number(append.get("running", null)!.id);
    append.get("ok", 44);
    check("with a result still running");
    writer.prepare("UPDATE results SET status = 'ok', tokens_per_sec_mean = 99 WHERE id = ?")
      .run(running);
    check("after a result finished out of order");
    writer.exec("UPDATE results SET tokens_per_sec_mean = 1 WHERE id = 5");
    check("after a speed changed");
    writer.exec("DELETE FROM results WHERE id = 9");
    check("after a delete");
    const last = Number(writer.prepare("SELECT MAX(id) AS id FROM results").get()!.id);
    writer.prepare("DELETE FROM results WHERE id = ?").run(last);
    append.get("ok", 12); // takes the deleted id again (no AUTOINCREMENT)
    check("after the newest result was deleted and its id taken again");
    store.db.exec("BEGIN");
    assert.ok(refreshStaleLines(store.db) > 0, "stale lines refreshed by a writer");
    store.db.exec("COMMIT");
    check("after the stale lines were refreshed");
    append.get("partial", null);
    append.get("ok", 41);
    check("after more appends");
  } finally {
    writer.close();
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
