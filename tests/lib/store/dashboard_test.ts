import assert from "node:assert/strict";
import {
  comparableModels,
  comparableVariants,
  dashboardStats,
  deleteModel,
  loadCurves,
  modelHistory,
  modelOnMachines,
  type ResultsStore,
  resultsTable,
} from "../../../lib/store/mod.ts";
import { clearResults } from "../../../lib/store/clear.ts";
import { storeVersion } from "../../../lib/store/snapshot.ts";
import { measuredParams, paramsHash } from "../../../lib/bench/cache_key.ts";
import { builtInDefaults } from "../../../lib/config/mod.ts";
import { BACKENDS, openOn } from "./_backends.ts";
import { machineRecord } from "./_machines.ts";

/** The measured parameters of a grid benchmark of two prompt lengths (as the CLI makes them). */
const GRID_PARAMS = measuredParams(builtInDefaults(), "openai", {
  n_parallel: 1,
  unified_kv_cache: false,
  workload: {
    prompt_tokens: [64, 256],
    gen_tokens: [16],
    concurrency: [],
    request_rate: [],
    requests: 8,
    seed: 1,
    slo_ttft_ms: null,
    slo_tpot_ms: null,
  },
});

/** A clock that moves one minute per call, from a fixed start. */
function clock(): () => Date {
  let t = Date.parse("2026-11-01T00:00:00.000Z");
  return () => new Date(t += 60_000);
}

const model = (key: string, quant: string, arch: string) => ({
  model_key: `${key}@${quant}`,
  model_name: key,
  quantization: quant,
  architecture: arch,
  size_bytes: 3 << 29,
});

/** The same history on any backend: variants, backends, parameters, failures, a grid, a load curve. */
function seed(store: ResultsStore): void {
  const variants = [
    model("org/alpha", "q4_k_m", "llama"),
    model("org/alpha", "q8_0", "llama"),
    model("org/beta", "q4_k_m", "qwen3"),
  ];
  store.recordMachine(machineRecord("aaaa000000000001", "desk"));
  store.recordMachine(machineRecord("bbbb000000000002", "rack"));
  let speed = 10;
  for (const [v, variant] of variants.entries()) {
    for (const backend of ["rest", "openai"]) {
      for (let round = 0; round < 6; round++) {
        const hash = round % 3 === 2 ? "h-long" : "h-default";
        const id = store.beginResult({
          // The first variant on two machines and one unknown: three identities per parameters.
          machine_id: v === 0 ? [null, "aaaa000000000001", "bbbb000000000002"][round % 3]! : null,
          model: variant,
          params_hash: hash,
          backend,
          params: { prompt: hash === "h-long" ? "long" : "p", n_parallel: round === 4 ? 2 : 1 },
          num_runs: 3,
          n_parallel: round === 4 ? 2 : 1,
        });
        const ys = [speed, speed + 0.5, speed + 1.25];
        speed += 1.5 + v;
        ys.forEach((y, i) =>
          store.addRun(id, { run_index: i, tokens_per_sec: y, ttft_ms: 50 + i })
        );
        const status = round === 3 ? "failed" : round === 5 && v === 1 ? "partial" : "ok";
        store.finishResult(id, {
          status,
          error: status === "failed" ? "boom" : null,
          aggregates: status === "failed" ? {} : {
            tokens_per_sec_mean: ys[1]!,
            tokens_per_sec_std: 0.5 + round / 10,
            runs_ok: 3,
            runs_failed: status === "partial" ? 1 : 0,
            ttft_ms_mean: 51,
            vram_mb: 2048 + v,
            tokens_per_sec_per_gb: ys[1]! / 1.5,
            ...(round === 4 ? { parallel_tokens_per_sec: ys[1]! * 1.8 } : {}),
          },
        });
        if (round === 5 && v === 2) {
          store.addLoadLevels(id, [
            { mode: "concurrency", level: 1, requests: 4, ok: 4, failed: 0, duration_ms: 900 },
            { mode: "concurrency", level: 4, requests: 8, ok: 7, failed: 1, duration_ms: 1500.5 },
          ]);
        }
      }
    }
  }
  // A grid result split into one result per cell.
  const grid = store.beginResult({
    model: variants[2]!,
    params_hash: paramsHash(GRID_PARAMS),
    backend: "openai",
    params: GRID_PARAMS as unknown as Record<string, unknown>,
    num_runs: 2,
  });
  for (const [i, p] of [64, 64, 256, 256].entries()) {
    store.addRun(grid, {
      run_index: i,
      tokens_per_sec: 20 + i,
      prompt_tokens_target: p,
      gen_tokens_target: 16,
    });
  }
  store.addGridCells(grid, [
    { prompt_tokens: 64, gen_tokens: 16, runs: 2 },
    { prompt_tokens: 256, gen_tokens: 16, runs: 2 },
  ]);
  store.finishResult(grid, { status: "ok", aggregates: { tokens_per_sec_mean: 21.5, runs_ok: 4 } });
  store.splitGrid(grid);
}

/** Every read of the dashboard, the comparison and the cache listing. */
function reads(store: ResultsStore): Record<string, unknown> {
  const db = store.db;
  return {
    resultsTable: resultsTable(db),
    dashboardStats: dashboardStats(db),
    comparableModels: comparableModels(db),
    comparableVariants: comparableVariants(db),
    historyPage: modelHistory(db, "org/alpha"),
    historySmallPage: modelHistory(db, "org/alpha@q8_0", { kind: "page", limit: 3, before: 30 }),
    historyDownsampled: modelHistory(db, "org/beta", { kind: "downsampled", perLine: 4 }),
    loadCurves: loadCurves(db, "org/beta"),
    onMachines: modelOnMachines(db, "org/alpha"),
    latestPerIdentity: store.latestPerIdentity(),
    grid: store.allResults().filter((r) =>
      r.params_hash !== "h-default" &&
      r.params_hash !== "h-long"
    ).map((r) => ({ ...r, started_at: null })),
  };
}

Deno.test({
  name: "the dashboard's reads answer the same on SQLite and PostgreSQL",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const answers: Record<string, unknown>[] = [];
    for (const backend of BACKENDS) {
      const store = await openOn(backend, { now: clock(), owner: "1:1" });
      try {
        seed(store);
        answers.push(reads(store));
      } finally {
        store.close();
      }
    }
    const [sqlite, postgres] = answers as [Record<string, unknown>, Record<string, unknown>];
    // Not empty answers that agree by being empty.
    assert.equal((sqlite.resultsTable as unknown[]).length, 9);
    assert.equal((sqlite.dashboardStats as { total_runs: number }).total_runs, 112);
    assert.equal((sqlite.loadCurves as { levels: unknown[] }[])[0]!.levels.length, 2);
    assert.ok((sqlite.grid as unknown[]).length >= 2, "the grid was split");
    for (const key of Object.keys(sqlite)) assert.deepEqual(postgres[key], sqlite[key], key);
  },
});

for (const backend of BACKENDS) {
  Deno.test({
    name: `deleting a model and clearing the store keep the derived tables right (${backend.name})`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const store = await openOn(backend, { now: clock(), owner: "1:1" });
      try {
        seed(store);
        const before = storeVersion(store.db);
        assert.equal(deleteModel(store.db, "org/alpha@q4_k_m"), 12);
        assert.notEqual(storeVersion(store.db), before, "a change gives a new store version");
        const stats = dashboardStats(store.db);
        assert.equal(stats.total_runs, 112 - 36);
        assert.ok(!resultsTable(store.db).some((r) => r.model_key === "org/alpha@q4_k_m"));
        assert.equal(clearResults(store.db), 26);
        assert.equal(dashboardStats(store.db).total_results, 0);
        assert.equal(dashboardStats(store.db).total_runs, 0);
        const id = store.beginResult({
          model: model("org/new", "f16", "x"),
          params_hash: "h",
          backend: "rest",
          params: {},
        });
        assert.equal(id, 1, "ids start again in an emptied store");
      } finally {
        store.close();
      }
    },
  });
}
