import assert from "node:assert/strict";
import { copyStore, ResultsStore, resultsTable } from "../../../lib/store/mod.ts";
import { BACKENDS, openOn } from "./_backends.ts";
import { machineRecord } from "./_machines.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const [SQLITE, POSTGRES] = BACKENDS as [typeof BACKENDS[0], typeof BACKENDS[1]];

function clock(start: string): () => Date {
  let t = Date.parse(start);
  return () => new Date(t += 1_000);
}

/** Two variants, three finished results with runs, a grid cell and a load level, one running. */
function fill(store: ResultsStore, speed: number): void {
  store.recordMachine(machineRecord("aaaa000000000001", "desk"));
  for (const [i, quant] of ["q4_k_m", "q8_0", "q8_0"].entries()) {
    const id = store.beginResult({
      machine_id: i === 1 ? "aaaa000000000001" : null,
      model: { model_key: `org/m@${quant}`, model_name: "org/m", quantization: quant },
      params_hash: `h${i}`,
      backend: "openai",
      params: { prompt: "p" },
      num_runs: 2,
    });
    store.addRun(id, { run_index: 0, tokens_per_sec: speed + i });
    store.addRun(id, { run_index: 1, tokens_per_sec: speed + i + 1 });
    store.addGridCells(id, [{ prompt_tokens: 64, gen_tokens: 16, runs: 2, tg_tps_mean: 3.5 }]);
    store.addLoadLevels(id, [
      { mode: "rate", level: 2, requests: 4, ok: 4, failed: 0, duration_ms: 10 },
    ]);
    store.finishResult(id, {
      status: "ok",
      aggregates: { tokens_per_sec_mean: speed + i + 0.5, runs_ok: 2 },
    });
  }
  store.beginResult({
    model: { model_key: "org/m@q8_0", model_name: "org/m", quantization: "q8_0" },
    params_hash: "h-running",
    backend: "openai",
    params: {},
  });
}

Deno.test("a SQLite store copied into PostgreSQL twice holds every result once", opts, async () => {
  const source = await openOn(SQLITE, {
    now: clock("2026-10-01T00:00:00Z"),
    ownerAlive: () => true,
  });
  const target = await openOn(POSTGRES);
  try {
    fill(source, 10);
    const first = copyStore(source.db, target.db);
    assert.deepEqual(first, { results: 3, runs: 6, skipped: 0, running: 1 });
    const again = copyStore(source.db, target.db);
    assert.deepEqual(again, { results: 0, runs: 0, skipped: 3, running: 1 });
    assert.deepEqual(resultsTable(target.db), resultsTable(source.db));
    const copied = target.allResults();
    assert.equal(copied.length, 3);
    assert.deepEqual(copied.map((r) => r.machine_id), [null, "aaaa000000000001", null]);
    assert.equal(
      (target.db.prepare("SELECT hostname FROM machines").get() as { hostname: string }).hostname,
      "desk",
      "the machine came with its result",
    );
    for (const r of copied) {
      assert.equal(target.runsOf(r.id).length, 2);
      assert.equal(target.gridOf(r.id)[0]!.tg_tps_mean, 3.5);
      assert.equal(target.loadLevelsOf(r.id)[0]!.mode, "rate");
    }
  } finally {
    source.close();
    target.close();
  }
});

Deno.test("a copy into a store with results of its own keeps both, ids mapped", opts, async () => {
  const a = await openOn(SQLITE, { now: clock("2026-10-01T00:00:00Z"), ownerAlive: () => true });
  const b = await openOn(SQLITE, { now: clock("2026-10-02T00:00:00Z"), ownerAlive: () => true });
  const target = await openOn(POSTGRES);
  try {
    fill(a, 10);
    fill(b, 20);
    copyStore(a.db, target.db);
    const second = copyStore(b.db, target.db);
    assert.equal(second.results, 3, "the same ids in another store are other results");
    assert.equal(target.allResults().length, 6);
    assert.deepEqual(
      target.allResults().map((r) => r.tokens_per_sec_mean),
      [10.5, 11.5, 12.5, 20.5, 21.5, 22.5],
    );
    assert.equal(
      (target.db.prepare("SELECT COUNT(*) AS n FROM models").get() as { n: number }).n,
      2,
      "a variant is one model whichever store it came from",
    );
  } finally {
    a.close();
    b.close();
    target.close();
  }
});

Deno.test("a copy that fails half-way writes nothing", opts, async () => {
  const source = await openOn(SQLITE, {
    now: clock("2026-10-01T00:00:00Z"),
    ownerAlive: () => true,
  });
  const target = await openOn(POSTGRES);
  try {
    fill(source, 10);
    // The target refuses the runs of the last result, after two results went in.
    target.db.exec("ALTER TABLE runs ADD CONSTRAINT no_slow CHECK (tokens_per_sec < 12.5)");
    assert.throws(() => copyStore(source.db, target.db), /no_slow/);
    assert.equal(target.allResults().length, 0);
    assert.equal(
      (target.db.prepare("SELECT COUNT(*) AS n FROM models").get() as { n: number }).n,
      0,
    );
  } finally {
    source.close();
    target.close();
  }
});
