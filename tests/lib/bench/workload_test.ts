import assert from "node:assert/strict";
import { workloadOf } from "../../../lib/bench/options.ts";
import { cellLabel, cellsOf, stoppedEarly } from "../../../lib/bench/workload.ts";
import { gridTable } from "../../../lib/bench/table.ts";
import type { ResultRow } from "../../../lib/store/mod.ts";
import { bench, ofType, testConfig, testOptions } from "./_harness.ts";

Deno.test("the grid is every prompt length with every output length", () => {
  const cells = cellsOf({ ...workloadOf({}), prompt_tokens: [128, 512], gen_tokens: [32] });
  assert.deepEqual(cells.map(cellLabel), ["pp128 tg32", "pp512 tg32"]);
  assert.deepEqual(cellsOf(workloadOf({})).map(cellLabel), ["default"]);
  const table = gridTable([{
    row: { model_name: "org/m", id: 1 } as unknown as ResultRow,
    grid: [{
      prompt_tokens: 128,
      gen_tokens: 32,
      runs: 3,
      prompt_tokens_mean: 130.3,
      prompt_exact: 0,
      gen_tokens_mean: 28,
      gen_exact: 0,
      pp_tps_mean: 1000,
      pp_tps_std: 12.5,
      tg_tps_mean: 50,
      tg_tps_std: 1.25,
    }],
  }]);
  assert.match(
    table,
    /^org\/m\s+pp128 tg32\s+1000\.0 ± 12\.5\s+50\.00 ± 1\.25\s+≈130\.3\s+≤32 \(28\.0\)\s+3$/m,
  );
});

for (const kind of ["sdk", "rest"] as const) {
  Deno.test(`a ${kind} benchmark with --prompt-tokens and --gen-tokens measures every cell`, async () => {
    await using b = await bench();
    const workload = { ...workloadOf({}), prompt_tokens: [100, 300], gen_tokens: [12] };
    const { summary, events } = await b.run(
      kind,
      testOptions({ workload, filters: { include_models: "qwen3-4b" } }),
      { config: { ...testConfig(b.double.port), num_runs: 2 } },
    );
    assert.equal(summary.outcome, "completed");
    const warnings = ofType(events, "log").map((e) => e.message);
    assert.equal(
      warnings.filter((w) => /cannot force the output length, so --gen-tokens is a maximum/.test(w))
        .length,
      1,
      "LM Studio cannot force the length: said once",
    );
    assert.equal(ofType(events, "job_start")[0]!.runs, 4, "2 cells × 2 runs");
    // One result per cell (its own identity), each with its runs and its grid row.
    const all = b.store.finishedResults(summary.resultIds);
    const rows = all.filter((r) => r.model_key === all.at(-1)!.model_key);
    assert.equal(all.length, 2 * summary.tested.length);
    assert.equal(rows.length, 2);
    assert.equal(new Set(rows.map((r) => r.params_hash)).size, 2);
    const runs = rows.flatMap((r) => b.store.runsOf(r.id));
    assert.deepEqual(runs.map((r) => r.prompt_tokens_target), [100, 100, 300, 300]);
    assert.deepEqual(runs.map((r) => r.tokens_in), [100, 100, 300, 300], "the server's counts");
    for (const r of rows) assert.equal(r.runs_ok, 2);
    // The console's line of the model gives no mean over its cells.
    const end = ofType(events, "model_end").at(-1)!;
    assert.deepEqual([end.figures?.identities, end.figures?.tokens_per_sec_mean], [2, null]);
    const grid = rows.flatMap((r) => b.store.gridOf(r.id));
    const row = rows[1]!;
    assert.deepEqual(grid.map((c) => [c.prompt_tokens, c.gen_tokens, c.runs]), [
      [100, 12, 2],
      [300, 12, 2],
    ]);
    // The SDK counts with LM Studio's tokenizer (exact); REST v1 has none (calibrated).
    assert.deepEqual(grid.map((c) => c.prompt_exact), kind === "sdk" ? [1, 1] : [0, 0]);
    assert.deepEqual(grid.map((c) => c.gen_exact), [0, 0], "not forced");
    for (const c of grid) assert.ok((c.pp_tps_mean as number) > 0 && (c.tg_tps_mean as number) > 0);
    const workloadJson = JSON.parse(String(row.workload_json));
    assert.equal(workloadJson.prompt_tokens_method, kind === "sdk" ? "tokenizer" : "calibrated");
    assert.equal(workloadJson.output_length, "maximum");
  });
}

Deno.test("a run stopped early is one that ended on its own before its output target", () => {
  assert.equal(stoppedEarly(64, { tokens_out: 10, stop_reason: "stop" }), 1);
  assert.equal(stoppedEarly(64, { tokens_out: 10, stop_reason: null }), 1);
  assert.equal(stoppedEarly(64, { tokens_out: 64, stop_reason: "length" }), 0);
  assert.equal(
    stoppedEarly(64, { tokens_out: 63, stop_reason: "length" }),
    0,
    "the limit, miscounted",
  );
  assert.equal(stoppedEarly(null, { tokens_out: 10, stop_reason: "stop" }), null);
  assert.equal(stoppedEarly(64, { tokens_out: null, stop_reason: "stop" }), null);
});

Deno.test("--kv-depth adds a dimension to the grid, depths outer, depth 0 a cell without one", () => {
  const w = { ...workloadOf({}), prompt_tokens: [64], gen_tokens: [16, 32], kv_depth: [0, 4096] };
  assert.deepEqual(cellsOf(w).map(cellLabel), [
    "pp64 tg16",
    "pp64 tg32",
    "pp64 tg16 @ d4096",
    "pp64 tg32 @ d4096",
  ]);
  assert.deepEqual(cellsOf({ ...workloadOf({}), kv_depth: [512] }).map(cellLabel), ["d512"]);
  assert.deepEqual(cellsOf({ ...workloadOf({}), kv_depth: [0] }).map(cellLabel), ["default"]);
  const table = gridTable([{
    row: { model_name: "org/m", id: 1 } as unknown as ResultRow,
    grid: [{ prompt_tokens: null, gen_tokens: 16, kv_depth: 4096, runs: 2, tg_tps_mean: 40 }],
  }]);
  assert.match(table, /^org\/m\s+tg16 @ d4096\s+-\s+40\.00 ± -/m);
});
