/**
 * `identity_latest.prev_id` (schema 12, lib/store/latest.ts and pg/previous.ts): after every kind
 * of write — results finishing in and out of order, ok and partial, other backends under one
 * hash, status changes, moves between machines, deletions, a deleted model, a cleared store —
 * and under concurrent writers on PostgreSQL, it names what the results table compared with
 * before it was kept: the newest ok result of the identity and backend before the newest
 * finished one, computed here from the history in TypeScript.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { clearResults } from "../../../lib/store/clear.ts";
import { deleteModel } from "../../../lib/store/dashboard.ts";
import type { StoreDb } from "../../../lib/store/database.ts";
import { ResultsStore } from "../../../lib/store/mod.ts";
import { testPostgres } from "../../_postgres.ts";
import { eachBackend, openOn } from "./_backends.ts";
import { machineRecord } from "./_machines.ts";

interface Stored {
  id: number;
  model_id: number;
  params_hash: string;
  machine_id: string | null;
  backend: string;
  status: string;
}

/** Each identity's expected previous id, from the history alone (the old per-row search). */
function expected(db: StoreDb): Record<string, number | null> {
  const all = db.prepare(
    "SELECT id, model_id, params_hash, machine_id, backend, status FROM results ORDER BY id",
  ).all() as unknown as Stored[];
  const key = (r: Stored) => `${r.model_id} ${r.params_hash} ${r.machine_id ?? ""}`;
  const newest = new Map<string, Stored>();
  for (const r of all) if (["ok", "partial"].includes(r.status)) newest.set(key(r), r);
  const out: Record<string, number | null> = {};
  for (const [k, n] of newest) {
    const before = all.filter((p) =>
      key(p) === k && p.status === "ok" && p.id < n.id && p.backend === n.backend
    );
    out[k] = before.at(-1)?.id ?? null;
  }
  return out;
}

/** Each identity's stored previous id. */
function stored(db: StoreDb): Record<string, number | null> {
  const rows = db.prepare("SELECT model_id, params_hash, machine_key, prev_id FROM identity_latest")
    .all();
  return Object.fromEntries(
    rows.map((r) => [`${r.model_id} ${r.params_hash} ${r.machine_key}`, r.prev_id ?? null]),
  ) as Record<string, number | null>;
}

const model = (i: number) => ({
  model_key: `org/m${i}@q4_k_m`,
  model_name: `org/m${i}`,
  quantization: "q4_k_m",
});

eachBackend("identity_latest.prev_id follows every kind of write to the history", async (b) => {
  const store = await openOn(b);
  const db = store.db;
  const check = (what: string) => assert.deepEqual(stored(db), expected(db), what);
  try {
    store.recordMachine(machineRecord("aaaa000000000001", "desk"));
    const begin = (i: number, hash: string, backend = "rest", machine?: string) =>
      store.beginResult({
        model: model(i),
        params_hash: hash,
        backend,
        params: {},
        machine_id: machine,
      });
    const finish = (id: number, status: "ok" | "partial" | "failed" | "stopped" = "ok") =>
      store.finishResult(id, { status, aggregates: { tokens_per_sec_mean: 10 + id } });
    const setStatus = (id: number, status: string) =>
      db.prepare("UPDATE results SET status = ? WHERE id = ?").run(status, id);
    for (const hash of ["h1", "h1", "h2"]) finish(begin(1, hash));
    check("three finished results");
    const slow = begin(1, "h1");
    finish(begin(1, "h1"));
    finish(slow); // finishes after a newer one: not the newest, but the previous
    check("out of order");
    finish(begin(1, "h1"), "partial");
    finish(begin(1, "h1", "sdk")); // another backend under the same hash
    check("partial and another backend");
    finish(begin(1, "h1"));
    check("back to the first backend");
    finish(begin(1, "h1"), "failed");
    const onDesk = begin(1, "h1", "rest", "aaaa000000000001");
    finish(onDesk);
    finish(begin(1, "h1", "rest", "aaaa000000000001"));
    check("failed, and two results on a known machine");
    setStatus(slow, "partial");
    check("an ok result turned partial");
    setStatus(slow, "ok");
    check("and ok again");
    db.prepare("UPDATE results SET machine_id = NULL WHERE id = ?").run(onDesk);
    check("a result moved to the unknown machine");
    const newest = Number(
      db.prepare("SELECT MAX(id) AS id FROM results WHERE machine_id IS NULL AND backend = 'rest'")
        .get()!.id,
    );
    db.prepare("DELETE FROM results WHERE id = ?").run(newest);
    check("the newest deleted");
    db.prepare("DELETE FROM results WHERE id = ?").run(slow);
    check("a previous one deleted");
    setStatus(Number(db.prepare("SELECT MAX(id) AS id FROM results").get()!.id), "failed");
    check("the newest failed afterwards");
    for (const hash of ["h1", "h3"]) finish(begin(2, hash));
    assert.ok(deleteModel(db, "org/m1@q4_k_m")! > 0);
    check("a model deleted");
    clearResults(db);
    finish(begin(3, "h1"));
    finish(begin(3, "h1"));
    check("after clearing");
    assert.ok(Object.values(stored(db)).some((v) => v !== null), "not only nulls");
  } finally {
    store.close();
  }
});

Deno.test({
  name:
    "identity_latest.prev_id stays right with four PostgreSQL writers finishing results of one identity at once",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const server = await testPostgres();
    const url = await server.createDatabase();
    const store = ResultsStore.open(url);
    const clients = Array.from({ length: 4 }, () => new pg.Client({ connectionString: url }));
    try {
      const id = store.beginResult({
        model: model(1),
        params_hash: "h",
        backend: "rest",
        params: {},
      });
      store.finishResult(id, { status: "ok", aggregates: {} });
      const modelId = Number(store.db.prepare("SELECT model_id FROM results").get()!.model_id);
      await Promise.all(clients.map((c) => c.connect()));
      // Each writer: a result started (running), then finished in its own transaction, the
      // transactions overlapping; some partial, so that the previous ok one is not the newest.
      await Promise.all(clients.map(async (c, w) => {
        await c.query("SET search_path TO localbench");
        for (let i = 0; i < 15; i++) {
          const { rows } = await c.query(
            `INSERT INTO results (model_id, params_hash, backend, status, started_at, params_json)
             VALUES ($1, 'h', 'rest', 'running', '2026-01-01T00:00:00.000Z', '{}') RETURNING id`,
            [modelId],
          );
          await c.query("BEGIN");
          await c.query("UPDATE results SET status = $1 WHERE id = $2", [
            (i + w) % 5 === 0 ? "partial" : "ok",
            rows[0].id,
          ]);
          await new Promise((r) => setTimeout(r, (i * 7 + w * 3) % 5));
          await c.query("COMMIT");
        }
      }));
      assert.equal(
        Number(store.db.prepare("SELECT ok_results FROM identity_latest").get()!.ok_results),
        61,
      );
      assert.deepEqual(stored(store.db), expected(store.db));
      // A writer blocked by another's uncommitted finish of the same identity: once it goes on,
      // it must see the result the other committed meanwhile (its previous one).
      const [a, b] = clients as [pg.Client, pg.Client];
      const started = async (c: pg.Client) =>
        Number(
          (await c.query(
            `INSERT INTO results (model_id, params_hash, backend, status, started_at, params_json)
             VALUES ($1, 'h', 'rest', 'running', '2026-01-01T00:00:00.000Z', '{}') RETURNING id`,
            [modelId],
          )).rows[0].id,
        );
      const x = await started(a), y = await started(b);
      await a.query("BEGIN");
      await a.query("UPDATE results SET status = 'ok' WHERE id = $1", [x]);
      await b.query("BEGIN");
      const blocked = b.query("UPDATE results SET status = 'ok' WHERE id = $1", [y]);
      for (let i = 0; i < 200; i++) {
        const waiting = store.db.prepare(
          "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
        ).get()!.n;
        if (Number(waiting) > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await a.query("COMMIT");
      await blocked;
      await b.query("COMMIT");
      assert.equal(
        Number(store.db.prepare("SELECT prev_id FROM identity_latest").get()!.prev_id),
        x,
      );
      assert.deepEqual(stored(store.db), expected(store.db));
    } finally {
      await Promise.all(clients.map((c) => c.end().catch(() => {})));
      store.close();
    }
  },
});
