import assert from "node:assert/strict";
import { aggregateRuns, gapsOf, interTokenGaps, runMetrics } from "../../../lib/bench/metrics.ts";
import { latencyTable, parallelTable } from "../../../lib/bench/table.ts";
import type { ChatResult } from "../../../lib/modelserver/backend.ts";
import type { ResultRow } from "../../../lib/store/mod.ts";
import { bench, testOptions } from "./_harness.ts";

function result(times: number[], total: number): ChatResult {
  return {
    text: "x",
    stats: {
      tokens_in: 10,
      tokens_out: times.length,
      time_to_first_token_ms: null,
      total_time_ms: null,
      tokens_per_second: null,
    },
    client: {
      ttft_ms: times[0]!,
      last_token_ms: times.at(-1)!,
      total_ms: total,
      tokens_out: times.length,
      token_times_ms: times,
    },
    response_id: null,
  };
}

Deno.test("interTokenGaps() keeps every gap between token events", () => {
  assert.deepEqual(interTokenGaps([100, 110, 125.004, 126]), [10, 15, 1]);
  assert.deepEqual(interTokenGaps([5]), []);
  assert.deepEqual(interTokenGaps(undefined), []);
});

Deno.test("a run's TPOT is 1000 ÷ its decode speed and its gaps are stored", () => {
  const m = runMetrics(result([100, 110, 120, 130, 140], 150));
  assert.equal(m.tokens_per_sec, 100, "4 tokens after the first in 40 ms");
  assert.equal(m.tpot_ms, 10);
  assert.deepEqual(gapsOf(m), [10, 10, 10, 10]);
});

Deno.test("per model the gaps are pooled and TTFT, TPOT, ITL and latency get p90 and p99", () => {
  const runs = [
    runMetrics(result([100, 110, 120, 130], 140)),
    runMetrics(result([200, 210, 220, 320], 330)),
    runMetrics(result([150, 160, 170, 180], 190)),
  ];
  const row = aggregateRuns(runs, null, null);
  assert.equal(row.itl_ms_median, 10);
  assert.equal(row.itl_ms_max, 100, "one slow token");
  assert.ok((row.itl_ms_p99 as number) > 90 && (row.itl_ms_p99 as number) <= 100);
  assert.equal(row.itl_ms_mean, (10 * 8 + 100) / 9);
  assert.equal(row.ttft_ms_median, 150);
  assert.ok((row.ttft_ms_p90 as number) > 150 && (row.ttft_ms_p99 as number) <= 200);
  assert.equal(typeof row.tpot_ms_p99, "number");
  assert.ok((row.total_ms_p99 as number) <= 330);
  const table = latencyTable([
    { ...row, model_name: "org/model", quantization: "q4", id: 1 } as unknown as ResultRow,
  ]);
  assert.match(
    table,
    /^Latency \(ms\)\s+Quant\s+TTFT mean\s+TTFT p50\s+TTFT p90\s+TTFT p99\s+TPOT/,
  );
  assert.match(table, /^org\/model\s+q4\s+150\.00\s+150\.00/m);
});

Deno.test("a benchmark against the double stores each run's gaps and the distributions", async () => {
  await using b = await bench({ tokenDelayMs: 2 });
  const { summary } = await b.run(
    "rest",
    testOptions({ filters: { include_models: "qwen/qwen3-4b@q4_k_m" } }),
  );
  assert.equal(summary.outcome, "completed");
  const row = b.store.allResults()[0]!;
  for (const run of b.store.runsOf(row.id)) {
    assert.equal(
      gapsOf(run).length,
      (run.tokens_out as number) - 1,
      "one gap per token after the first",
    );
    assert.ok((run.tpot_ms as number) > 0);
  }
  for (const metric of ["ttft_ms", "tpot_ms", "itl_ms", "total_ms"]) {
    assert.ok((row[`${metric}_p99`] as number) >= (row[`${metric}_median`] as number), metric);
    assert.ok((row[`${metric}_p90`] as number) > 0, metric);
  }
});

Deno.test("the parallel table lists the rows with parallel rounds, against one stream", () => {
  const row = (over: Record<string, unknown>) =>
    ({
      model_name: "org/m",
      quantization: "q4_k_m",
      n_parallel: 4,
      parallel_tokens_per_sec: 300,
      e2e_tokens_per_sec_mean: 100,
      parallel_latency_ms_mean: 812.4,
      parallel_latency_ms_p95: 901.6,
      ...over,
    }) as unknown as ResultRow;
  assert.equal(parallelTable([row({ n_parallel: 1 })]), null, "sequential only: no table");
  const table = parallelTable([row({}), row({ n_parallel: 1, model_name: "org/solo" })])!;
  const lines = table.split("\n");
  assert.equal(lines.length, 3, table);
  assert.match(lines[2]!, /^org\/m\s+q4_k_m\s+4\s+300\.0\s+3\.00×\s+812\s+902$/);
});
