import assert from "node:assert/strict";
import { dashboardStats, statsOf } from "../../../lib/store/dashboard_stats.ts";
import type { ResultsStore } from "../../../lib/store/mod.ts";
import { BACKENDS, openOn } from "./_backends.ts";
import { machineRecord } from "./_machines.ts";
import { statsBySql } from "./_stats_sql.ts";

/** A small deterministic generator (mulberry32): the same store on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 60 finished results over 14 variants (quantizations and architectures, some unknown), two
 * machines and none, three parameter sets: speeds with ties and gaps, efficiency on some.
 */
function seed(store: ResultsStore, rand: () => number): void {
  store.recordMachine(machineRecord("aaaa000000000001", "desk"));
  store.recordMachine(machineRecord("bbbb000000000002", "server"));
  const quants = ["q4_k_m", "q8_0", null, "f16"];
  const archs = ["llama", "qwen3", null];
  const machines = ["aaaa000000000001", "bbbb000000000002", null];
  for (let i = 0; i < 60; i++) {
    const v = Math.floor(rand() * 14);
    const quant = quants[v % quants.length]!;
    const speed = rand() < 0.15 ? null : rand() < 0.1 ? 12.5 : Math.round(rand() * 9000) / 100;
    const id = store.beginResult({
      model: {
        model_key: `org/m${v}@${quant ?? "x"}`,
        model_name: `org/m${v}`,
        quantization: quant,
        architecture: archs[v % archs.length]!,
      },
      params_hash: `h${Math.floor(rand() * 3)}`,
      backend: rand() < 0.5 ? "rest" : "openai",
      params: {},
      machine_id: machines[Math.floor(rand() * 3)]!,
    });
    store.addRun(id, { run_index: 0, tokens_per_sec: speed ?? 0 });
    store.finishResult(id, {
      status: "ok",
      aggregates: {
        tokens_per_sec_mean: speed,
        tokens_per_sec_std: 1,
        runs_ok: 3,
        num_runs: 3,
        vram_mb: rand() < 0.3 ? null : Math.round(rand() * 8000),
        tokens_per_sec_per_gb: rand() < 0.4 ? null : Math.round(rand() * 2000) / 100,
      },
    });
  }
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `dashboardStats() from the results table equals the one SQL statement it replaced (${backend.name})`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      for (const s of [1, 2, 3]) {
        const store = await openOn(backend);
        try {
          seed(store, random(s));
          const stats = dashboardStats(store.db);
          assert.deepEqual(stats, statsBySql(store.db), `seed ${s}`);
          assert.ok(stats.top_models_extended.length === 10 && stats.efficiency_top.length === 5);
          assert.equal(stats.total_runs, 60);
        } finally {
          store.close();
        }
      }
    },
  });
}

Deno.test("statsOf() of no results is zeros and empty lists", () => {
  assert.deepEqual(statsOf([], 0), {
    speed_summary: { min: 0, p50: 0, avg: 0, p95: 0, max: 0 },
    top_models_extended: [],
    quantization_distribution: {},
    architecture_distribution: {},
    efficiency_top: [],
    cached_models: 0,
    total_results: 0,
    total_runs: 0,
    architecture_count: 0,
    quantization_count: 0,
  });
});
