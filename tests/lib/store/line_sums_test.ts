import assert from "node:assert/strict";
import { DatabaseSync as Database } from "node:sqlite";
import { createRandom } from "../../../lib/engine/prng.ts";
import { clearResults } from "../../../lib/store/clear.ts";
import {
  deleteModel,
  ensureColumns,
  MIGRATIONS,
  ResultsStore,
  type StoreDb,
} from "../../../lib/store/mod.ts";
import { type Backend, eachBackend, openOn } from "./_backends.ts";
import { seedHistory } from "./_history_seed.ts";
import { lineSums, pickedIds } from "../../../lib/store/history_sums.ts";
import { historySeries } from "../../../lib/store/history_series.ts";
import { capture } from "./_capture.ts";
import { refreshStaleLines } from "../../../lib/store/line_sums.ts";
import { LONG_MODEL, seedLongHistory } from "./_long_history.ts";
import { machineRecord } from "./_machines.ts";
import { assertSame, byKey, DESK, fromScratch, kept, type Line, RACK } from "./_line_sums.ts";

function start(
  store: ResultsStore,
  quant: string,
  backend = "rest",
  hash = "h",
  machine: string | null = null,
): number {
  return store.beginResult({
    model: { model_key: `org/m@${quant}`, model_name: "org/m", quantization: quant },
    params_hash: hash,
    backend,
    params: {},
    machine_id: machine,
  });
}

/** The lines as the reader gives them, keyed as the table keys them. */
const read = (db: StoreDb, name: string): Line[] =>
  lineSums(db, name).map((l) => ({ ...l, machine_key: l.machine_id ?? "" })).sort(byKey);

const finish = (store: ResultsStore, id: number, speed: number | null, status = "ok") =>
  store.finishResult(id, {
    status: status as "ok",
    aggregates: speed === null ? {} : { tokens_per_sec_mean: speed },
  });

eachBackend(
  "results finished in order are added to their line's sums, equal to a computation from scratch",
  async (backend) => {
    const store = await openOn(backend);
    try {
      seedLongHistory(store, 600);
      const rows = kept(store.db);
      assert.equal(rows.length, 3);
      assert.ok(rows.every((r) => r.stale === 0), "appends never leave a line stale");
      assertSame(rows, fromScratch(store.db), "after 600 appends");
    } finally {
      store.close();
    }
  },
);

eachBackend(
  "a result finishing before a newer one of its line has its line computed again in the same write",
  async (backend) => {
    const store = await openOn(backend);
    try {
      const a = start(store, "q4");
      const b = start(store, "q4");
      const c = start(store, "q4");
      finish(store, b, 20);
      finish(store, c, 30);
      finish(store, a, 10); // position 1: b and c move to 2 and 3
      const rows = kept(store.db);
      assert.equal(rows[0]!.stale, 0);
      assertSame(rows, fromScratch(store.db), "out of order");
      assert.equal(rows[0]!.sx, 6);
      assert.equal(rows[0]!.sxy, 10 + 40 + 90);
    } finally {
      store.close();
    }
  },
);

eachBackend(
  "deletes, status changes, moves and speed changes by any writer leave the lines right, read before and after the refresh",
  async (backend) => {
    const store = await openOn(backend);
    const rng = createRandom(7);
    const random = () => rng.next();
    try {
      store.recordMachine(machineRecord(DESK, "desk"));
      store.recordMachine(machineRecord(RACK, "rack"));
      const lines = [
        ["q4", "rest", "h", null],
        ["q4", "rest", "h", DESK],
        ["q4", "sdk", "h", RACK],
        ["q8", "rest", "h2", DESK],
      ] as const;
      const ids: number[] = [];
      for (let i = 0; i < 120; i++) {
        const [q, backend, hash, machine] = lines[Math.floor(random() * lines.length)]!;
        ids.push(start(store, q, backend, hash, machine));
      }
      // Finished in a shuffled order, some without a speed, some failed.
      const order = [...ids].sort(() => random() - 0.5);
      for (const id of order) {
        const r = random();
        finish(
          store,
          id,
          r < 0.1 ? null : Math.round(random() * 5000) / 100,
          r > 0.9 ? "failed" : "ok",
        );
      }
      assertSame(kept(store.db), fromScratch(store.db), "shuffled finishes");
      const changes = [
        "UPDATE results SET status = 'failed' WHERE id % 7 = 0",
        "UPDATE results SET status = 'partial' WHERE id % 5 = 0 AND status = 'ok'",
        "UPDATE results SET status = 'ok' WHERE id % 14 = 0",
        "UPDATE results SET tokens_per_sec_mean = tokens_per_sec_mean * 2 WHERE id % 11 = 0",
        "UPDATE results SET tokens_per_sec_mean = NULL WHERE id % 13 = 0",
        "UPDATE results SET n_parallel = 2, parallel_tokens_per_sec = 9 WHERE id % 17 = 0",
        "UPDATE results SET finished_at = '2020-01-01T00:00:00.000Z' WHERE id % 19 = 0",
        "UPDATE results SET backend = 'sdk' WHERE id % 9 = 0",
        "UPDATE results SET params_hash = 'h9' WHERE id % 23 = 0",
        `UPDATE results SET machine_id = '${RACK}' WHERE id % 8 = 0`,
        "UPDATE results SET machine_id = NULL WHERE id % 10 = 0",
        "DELETE FROM results WHERE id % 6 = 0",
        `DELETE FROM results WHERE id = (SELECT MAX(id) FROM results WHERE status = 'ok')`,
      ];
      for (const sql of changes) {
        store.db.exec(sql);
        // The reader computes a stale line from its results; the table has it after a refresh.
        const scratch = fromScratch(store.db);
        const lines = read(store.db, "org/m");
        assertSame(lines, scratch, `read after ${sql}`);
        refreshStaleLines(store.db);
        const rows = kept(store.db);
        assert.ok(rows.every((r) => r.stale === 0), sql);
        assertSame(rows, scratch, `refreshed after ${sql}`);
      }
      // A line goes with its last finished result; a deleted variant takes its lines.
      store.db.exec("DELETE FROM results WHERE backend = 'sdk'");
      assert.ok(kept(store.db).every((r) => r.backend === "rest"));
      deleteModel(store.db, "org/m@q8");
      refreshStaleLines(store.db);
      assertSame(kept(store.db), fromScratch(store.db), "after deleting a variant");
    } finally {
      store.close();
    }
  },
);

eachBackend(
  "clearing the store empties line_sums, and new results start new lines",
  async (backend) => {
    const store = await openOn(backend);
    try {
      seedLongHistory(store, 40);
      clearResults(store.db);
      assert.deepEqual(kept(store.db), []);
      finish(store, start(store, "q4"), 12);
      assertSame(kept(store.db), fromScratch(store.db), "after the clear");
      assert.equal(kept(store.db)[0]!.total, 1);
    } finally {
      store.close();
    }
  },
);

/** A store two connections can open (SQLite: a file, not memory), and how to remove it. */
async function shared(backend: Backend): Promise<{ path: string; remove: () => Promise<void> }> {
  if (backend.name !== "sqlite") return { path: await backend.location(), remove: async () => {} };
  const path = await Deno.makeTempFile({ suffix: ".db" });
  return { path, remove: () => Deno.remove(path) };
}

eachBackend(
  "a store reopened after another writer left a line stale has it computed again",
  async (backend) => {
    const { path, remove } = await shared(backend);
    try {
      const store = ResultsStore.open(path);
      seedLongHistory(store, 50);
      store.db.exec("DELETE FROM results WHERE id = 3");
      assert.ok(kept(store.db).some((r) => r.stale === 1));
      store.close();
      const again = ResultsStore.open(path);
      try {
        assert.ok(kept(again.db).every((r) => r.stale === 0));
        assertSame(kept(again.db), fromScratch(again.db), "reopened");
        assert.ok(lineSums(again.db, LONG_MODEL).length === 3);
      } finally {
        again.close();
      }
    } finally {
      await remove();
    }
  },
);

Deno.test("a schema-10 store gets line_sums filled from its history when opened, a line per machine", async () => {
  const path = await Deno.makeTempFile({ suffix: ".db" });
  try {
    const old = new Database(path);
    old.exec("PRAGMA foreign_keys = ON");
    for (const m of MIGRATIONS.filter((m) => m.version <= 10)) {
      old.exec(m.sql);
      m.apply?.(old);
    }
    old.exec("PRAGMA user_version = 10");
    ensureColumns(old);
    seedHistory(old, { runs: 600, variants: 8 });
    const now = new Date(0).toISOString();
    const machine = old.prepare(
      `INSERT INTO machines (id, hostname, description_json, first_seen, last_seen)
       VALUES (?, ?, '{}', ?, ?)`,
    );
    machine.run(DESK, "desk", now, now);
    machine.run(RACK, "rack", now, now);
    old.exec(`UPDATE results SET machine_id = '${DESK}' WHERE id % 3 = 0`);
    old.exec(`UPDATE results SET machine_id = '${RACK}' WHERE id % 3 = 1`);
    old.close();
    const store = ResultsStore.open(path);
    try {
      const rows = kept(store.db);
      assert.ok(rows.length >= 24, `${rows.length} lines`);
      assert.deepEqual(new Set(rows.map((r) => r.machine_key)), new Set(["", DESK, RACK]));
      assertSame(rows, fromScratch(store.db), "migrated");
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(path);
  }
});

eachBackend(
  "the downsampled points are kept across writes that change none of the model's lines, and picked again after an append",
  async (backend) => {
    const { path, remove } = await shared(backend);
    try {
      const store = ResultsStore.open(path);
      try {
        seedLongHistory(store, 400);
        const first = pickedIds(store.db, LONG_MODEL, 40);
        store.db.exec("UPDATE models SET last_seen = 'now'");
        finish(store, start(store, "q4"), 12); // another model
        assert.equal(pickedIds(store.db, LONG_MODEL, 40), first, "kept: the same answer");
        seedLongHistory(store, 5); // appends to the model's lines
        const after = pickedIds(store.db, LONG_MODEL, 40);
        assert.notEqual(after, first);
        const fresh = ResultsStore.open(path);
        try {
          assert.deepEqual(
            pickedIds(fresh.db, LONG_MODEL, 40),
            after,
            "as a new connection picks them",
          );
        } finally {
          fresh.close();
        }
        store.db.exec(`UPDATE results SET tokens_per_sec_mean = 1 WHERE id = ${first[1]}`);
        assert.notEqual(
          pickedIds(store.db, LONG_MODEL, 40),
          after,
          "a changed speed: picked again",
        );
      } finally {
        store.close();
      }
    } finally {
      await remove();
    }
  },
);

eachBackend(
  "splitting a grid result moves it to its first cell's line and leaves no line stale",
  async (backend) => {
    const store = await openOn(backend);
    try {
      const begin = () =>
        store.beginResult({
          model: { model_key: "m", model_name: "m", quantization: null },
          params_hash: "h",
          backend: "openai",
          params: { backend: "openai", load: {} },
        });
      const before = begin();
      store.finishResult(before, { status: "ok", aggregates: { tokens_per_sec_mean: 30 } });
      const grid = begin();
      store.addGridCells(grid, [{ prompt_tokens: 64, runs: 1 }, { prompt_tokens: 128, runs: 1 }]);
      store.finishResult(grid, { status: "ok", aggregates: { tokens_per_sec_mean: 20 } });
      assert.equal(kept(store.db).length, 1);
      assert.equal(store.splitGrid(grid).length, 2);
      const rows = kept(store.db);
      assert.equal(rows.length, 3, "the plain line and one per cell");
      assert.ok(rows.every((r) => r.stale === 0));
      assertSame(rows, fromScratch(store.db), "after the split");
    } finally {
      store.close();
    }
  },
);

Deno.test("after a new result the model's figures are read from line_sums, not computed over its results", () => {
  const store = ResultsStore.open(":memory:");
  try {
    seedLongHistory(store, 300);
    historySeries(store.db, LONG_MODEL);
    seedLongHistory(store, 1); // a new result of the first line
    const recorded = capture(store.db);
    const got = historySeries(recorded.db, LONG_MODEL)!;
    assert.equal(got.stats.total_runs, 301);
    const reads = recorded.statements.filter((s) => !/^\s*PRAGMA|total_changes/.test(s.sql));
    assert.ok(reads.some((s) => /FROM models m CROSS JOIN line_sums/.test(s.sql)));
    for (const s of reads) {
      assert.ok(!/localbench_line_xy|GROUP BY/.test(s.sql), `a pass over the results: ${s.sql}`);
    }
  } finally {
    store.close();
  }
});

eachBackend(
  "a variant on two machines keeps a line per machine, as the history's lines, and a result moved to another machine moves its line",
  async (backend) => {
    const store = await openOn(backend);
    try {
      store.recordMachine(machineRecord(DESK, "desk"));
      store.recordMachine(machineRecord(RACK, "rack"));
      for (const speed of [40, 41, 42]) finish(store, start(store, "q4", "rest", "h", DESK), speed);
      for (const speed of [90, 92]) finish(store, start(store, "q4", "rest", "h", RACK), speed);
      const unknown = start(store, "q4");
      finish(store, unknown, 10);
      const rows = kept(store.db);
      assert.deepEqual(rows.map((r) => [r.machine_key, r.total, r.sy, r.sx]), [
        ["", 1, 10, 1],
        [DESK, 3, 123, 6],
        [RACK, 2, 182, 3],
      ]);
      assert.ok(rows.every((r) => r.stale === 0), "appends per machine never leave a line stale");
      const series = historySeries(store.db, "org/m")!.series;
      assert.deepEqual(series.map((s) => [s.machine_id, s.stats.total_runs]), [
        [DESK, 3],
        [RACK, 2],
        [null, 1],
      ]);
      store.db.exec(`UPDATE results SET machine_id = '${RACK}' WHERE id = ${unknown}`);
      refreshStaleLines(store.db);
      assertSame(kept(store.db), fromScratch(store.db), "moved to the rack");
      assert.deepEqual(kept(store.db).map((r) => [r.machine_key, r.total]), [[DESK, 3], [RACK, 3]]);
    } finally {
      store.close();
    }
  },
);
