import assert from "node:assert/strict";
import { quantile } from "../../../lib/stats.ts";
import { loadCurves, ResultsStore, type Row } from "../../../lib/store/mod.ts";
import { machineRecord } from "./_machines.ts";

/** A store with one result of `qwen/qwen3-4b@q4` and a one-level load curve of eight requests. */
function storeWithCurve(workloadJson: string | null): { store: ResultsStore; latencies: number[] } {
  const store = ResultsStore.open(":memory:");
  return { store, latencies: addCurve(store, workloadJson, null) };
}

/** Stores a finished result with a one-level load curve on `machine`; its latencies. */
function addCurve(store: ResultsStore, workloadJson: string | null, machine: string | null) {
  const id = store.beginResult({
    model: { model_key: "qwen/qwen3-4b@q4", model_name: "qwen/qwen3-4b", quantization: "q4" },
    params_hash: "hash",
    backend: "openai",
    params: {},
    prompt: "p",
    context_length: 4096,
    num_runs: 1,
    n_parallel: 1,
    machine_id: machine,
  });
  store.addRun(id, { run_index: 0, tokens_per_sec: 50, ttft_ms: 10, total_ms: 100 });
  const latencies = [110, 120, 130, 140, 150, 160, 170, 900];
  latencies.forEach((ms, i) =>
    store.addRun(id, {
      run_index: 2000 + i,
      load_mode: "concurrency",
      load_level: 2,
      total_ms: ms,
      ttft_ms: ms / 10,
      tpot_ms: 2,
    })
  );
  store.addRun(id, {
    run_index: 2100,
    load_mode: "concurrency",
    load_level: 2,
    status: "failed",
    total_ms: 99999,
  });
  const level: Row = {
    mode: "concurrency",
    level: 2,
    requests: 9,
    ok: 8,
    failed: 1,
    duration_ms: 1000,
    latency_ms_p50: quantile([...latencies], 0.5),
    latency_ms_p99: quantile([...latencies], 0.99),
    knee: 0,
  };
  store.addLoadLevels(id, [level]);
  store.finishResult(id, { status: "ok", aggregates: { workload_json: workloadJson } });
  return latencies;
}

Deno.test("loadCurves() gives a variant's newest curve on each machine, named, and one machine's when asked", () => {
  const store = ResultsStore.open(":memory:");
  try {
    store.recordMachine(machineRecord("aaaa000000000001", "desk"));
    store.recordMachine(machineRecord("bbbb000000000002", "server"));
    addCurve(store, null, "bbbb000000000002");
    addCurve(store, null, "aaaa000000000001");
    addCurve(store, null, "aaaa000000000001");
    addCurve(store, null, null);
    const curves = loadCurves(store.db, "qwen/qwen3-4b");
    assert.deepEqual(curves.map((c) => [c.machine_name, c.result_id]), [
      [null, 4],
      ["desk", 3],
      ["server", 1],
    ]);
    assert.deepEqual(
      loadCurves(store.db, "qwen/qwen3-4b", "aaaa000000000001").map((c) => c.result_id),
      [3],
    );
    assert.deepEqual(loadCurves(store.db, "qwen/qwen3-4b", null).map((c) => c.result_id), [4]);
    assert.deepEqual(loadCurves(store.db, "qwen/qwen3-4b", "cccc000000000003"), []);
  } finally {
    store.close();
  }
});

Deno.test("loadCurves() adds the percentiles stored with the result, computed from the level's requests", () => {
  const { store, latencies } = storeWithCurve(JSON.stringify({ percentiles: [99.9, 50] }));
  try {
    const [curve] = loadCurves(store.db, "qwen/qwen3-4b");
    assert.deepEqual(curve!.percentiles, [50, 99.9]);
    const level = curve!.levels[0]!;
    assert.equal(level["latency_ms_p99.9"], quantile(latencies, 99.9 / 100), "failed one left out");
    assert.equal(level.latency_ms_p50, quantile(latencies, 0.5), "the stored column");
    assert.equal(level["ttft_ms_p99.9"], quantile(latencies.map((ms) => ms / 10), 99.9 / 100));
    assert.equal(level["tpot_ms_p50"], 2);
  } finally {
    store.close();
  }
});

Deno.test("loadCurves() without stored percentiles gives the stored columns only", () => {
  const { store } = storeWithCurve(null);
  try {
    const [curve] = loadCurves(store.db, "qwen/qwen3-4b");
    assert.equal(curve!.percentiles, null);
    assert.equal(Object.keys(curve!.levels[0]!).some((k) => k.endsWith("p99.9")), false);
  } finally {
    store.close();
  }
});
