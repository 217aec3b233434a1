import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import {
  cacheListing,
  cacheListingJson,
  ensureColumns,
  machines,
  migrate,
  MIGRATIONS,
  ResultsStore,
  resultsTable,
} from "../../../lib/store/mod.ts";
import { gpusText, labelled } from "../../../lib/store/machines.ts";
import { tempEnv } from "../../_helpers.ts";
import { machineRecord } from "./_machines.ts";

const MODEL = { model_key: "org/m@q4_k_m", model_name: "org/m", quantization: "q4_k_m" };

/** A finished result of MODEL with parameters `hash` on `machine` (null: unknown). */
function measured(store: ResultsStore, machine: string | null, speed: number, hash = "h1") {
  const id = store.beginResult({
    model: MODEL,
    params_hash: hash,
    backend: "openai",
    params: {},
    machine_id: machine,
  });
  store.addRun(id, { run_index: 0, tokens_per_sec: speed });
  store.finishResult(id, {
    status: "ok",
    aggregates: { tokens_per_sec_mean: speed, runs_ok: 3, num_runs: 3 },
  });
  return id;
}

Deno.test("the same model and parameters on two machines are two identities, each its own cache", () => {
  const store = ResultsStore.open(":memory:");
  try {
    store.recordMachine(machineRecord("aaaa000000000001", "desk"));
    store.recordMachine(machineRecord("bbbb000000000002", "server"));
    const onDesk = measured(store, "aaaa000000000001", 40);
    const onServer = measured(store, "bbbb000000000002", 90);
    const latest = store.latestPerIdentity();
    assert.deepEqual(latest.map((r) => [r.id, r.machine_name]).sort(), [
      [onDesk, "desk"],
      [onServer, "server"],
    ]);
    assert.equal(store.cacheHit(MODEL.model_key, "h1", 3, "aaaa000000000001")?.id, onDesk);
    assert.equal(store.cacheHit(MODEL.model_key, "h1", 3, "bbbb000000000002")?.id, onServer);
    assert.equal(
      store.cacheHit(MODEL.model_key, "h1", 3, "cccc000000000003"),
      null,
      "a third machine has measured nothing",
    );
    assert.equal(store.cacheHit(MODEL.model_key, "h1", 3, null), null, "nor an unknown one");
    // The results table: one row per machine, with no Δ across machines.
    const rows = resultsTable(store.db);
    assert.deepEqual(rows.map((r) => [r.machine_name, r.tokens_per_sec_mean]).sort(), [
      ["desk", 40],
      ["server", 90],
    ]);
    assert.ok(rows.every((r) => r.prev_tokens_per_sec === null));
    // A second result on the desk is the desk's Δ, against the desk's first.
    measured(store, "aaaa000000000001", 44);
    const desk = resultsTable(store.db).find((r) => r.machine_name === "desk")!;
    assert.equal(desk.prev_tokens_per_sec, 40);
    // --list-cache names the machine of each line.
    const text = cacheListing(store);
    assert.match(text, /Machine/);
    assert.match(text, /desk/);
    assert.match(text, /server/);
    const json = cacheListingJson(store);
    assert.deepEqual(json.results.map((r) => r.machine_name).sort(), ["desk", "server"]);
  } finally {
    store.close();
  }
});

Deno.test("recording a machine again keeps its first sighting and takes its newest description", () => {
  let now = new Date("2026-01-01T00:00:00Z");
  const store = ResultsStore.open(":memory:", { now: () => now });
  try {
    store.recordMachine(machineRecord("aaaa000000000001", "desk"));
    now = new Date("2026-02-01T00:00:00Z");
    store.recordMachine({
      ...machineRecord("aaaa000000000001", "desk"),
      gpus: [{ name: "NVIDIA GeForce RTX 4090", driver: "nvidia 560.10" }],
    });
    const [m] = machines(store.db);
    assert.equal(m!.first_seen, "2026-01-01T00:00:00.000Z");
    assert.equal(m!.last_seen, "2026-02-01T00:00:00.000Z");
    assert.equal(m!.gpus, "NVIDIA GeForce RTX 4090 (nvidia 560.10)");
    assert.equal(machines(store.db).length, 1);
  } finally {
    store.close();
  }
});

Deno.test("two machines with one host name are told apart by their id", () => {
  const rows = labelled([
    { id: "aaaa000000000001", hostname: "box" },
    { id: "bbbb000000000002", hostname: "box" },
    { id: "cccc000000000003", hostname: "laptop" },
  ]);
  assert.deepEqual(rows.map((r) => r.label), ["box (aaaa00)", "box (bbbb00)", "laptop"]);
  assert.equal(gpusText([]), null);
  assert.equal(
    gpusText([{ name: "A", driver: null }, { name: "B", driver: "x 1" }]),
    "A + B (x 1)",
  );
});

Deno.test("a schema-9 store gains machines: its results keep their identity as an unknown machine", async () => {
  await using t = await tempEnv();
  const path = join(t.root, "v9.db");
  const old = new DatabaseSync(path);
  old.exec("PRAGMA foreign_keys = ON");
  for (const m of MIGRATIONS.filter((m) => m.version <= 9)) {
    if (m.sql) old.exec(m.sql);
    m.apply?.(old);
  }
  old.exec("PRAGMA user_version = 9");
  ensureColumns(old);
  old.exec(`INSERT INTO models (id, model_key, model_name, quantization, first_seen, last_seen)
    VALUES (1, 'org/m@q4_k_m', 'org/m', 'q4_k_m', '2025-01-01', '2025-01-01')`);
  for (const [id, speed] of [[1, 30], [2, 31]]) {
    old.exec(`INSERT INTO results (id, model_id, params_hash, backend, status, started_at,
      finished_at, tokens_per_sec_mean, runs_ok, num_runs)
      VALUES (${id}, 1, 'h1', 'openai', 'ok', '2025-01-0${id}', '2025-01-0${id}', ${speed}, 3, 3)`);
  }
  assert.equal(
    (old.prepare("SELECT COUNT(*) AS n FROM identity_latest").get() as { n: number }).n,
    1,
  );
  old.close();

  const store = ResultsStore.open(path);
  try {
    assert.deepEqual(migrate(store.db), [], "opened at the newest schema");
    const [only, ...rest] = store.latestPerIdentity();
    assert.equal(rest.length, 0);
    assert.equal(only!.id, 2);
    assert.equal(only!.machine_id, null);
    assert.match(cacheListing(store), /unknown machine/);
    assert.equal(store.cacheHit(MODEL.model_key, "h1", 3, null)?.id, 2);
    // The first result on a known machine starts its own line; the old one stays.
    store.recordMachine(machineRecord("aaaa000000000001", "desk"));
    assert.equal(store.cacheHit(MODEL.model_key, "h1", 3, "aaaa000000000001"), null);
    measured(store, "aaaa000000000001", 50);
    const rows = resultsTable(store.db);
    assert.deepEqual(rows.map((r) => [r.machine_name, r.tokens_per_sec_mean]).sort(), [
      [null, 31],
      ["desk", 50],
    ]);
    assert.equal(rows.find((r) => r.machine_name === null)!.prev_tokens_per_sec, 30);
    // The view of the newest result per identity agrees.
    const view = store.db.prepare("SELECT id, machine_id FROM latest_results ORDER BY id").all()
      .map((r) => [r.id, r.machine_id]);
    assert.deepEqual(view, [[2, null], [3, "aaaa000000000001"]]);
  } finally {
    store.close();
  }
});
