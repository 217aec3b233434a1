import assert from "node:assert/strict";
import { bench, ofType, restSequence, testOptions } from "../lib/bench/_harness.ts";

const QWEN = "qwen/qwen3-4b@q4_k_m";

Deno.test("--n-parallel 2 sends concurrent requests and stores the parallel columns", async () => {
  await using b = await bench({ tokenDelayMs: 2 });
  const { summary, events } = await b.run(
    "rest",
    testOptions({ n_parallel: 2, filters: { include_models: QWEN } }),
  );
  assert.equal(summary.outcome, "completed");
  assert.ok(b.double.state.maxActiveChats >= 2, "two chat streams were open at once");
  const loads = b.double.state.requests.filter((r) => r.path === "/api/v1/models/load");
  assert.equal(loads.length, 1);
  const row = b.store.allResults()[0]!;
  assert.equal(row.n_parallel, 2);
  assert.equal(typeof row.parallel_tokens_per_sec, "number");
  assert.equal(typeof row.parallel_latency_ms_p95, "number");
  const runs = b.store.runsOf(row.id);
  assert.equal(runs.filter((r) => r.parallel === 2).length, 4, "2 rounds × 2 requests");
  assert.equal(runs.filter((r) => r.parallel === 1).length, 2);
  assert.ok(ofType(events, "run_start").some((e) => e.parallel === 2));
});

Deno.test("--n-parallel on a server older than 0.4.0 fails with a clear error", async () => {
  await using b = await bench({ version: "0.3.30" });
  const { summary } = await b.run(
    "rest",
    testOptions({ n_parallel: 2, filters: { include_models: QWEN } }),
  );
  assert.equal(summary.outcome, "failed");
  assert.match(summary.error!, /0\.3\.30.*0\.4\.0 or later.*--n-parallel 1/);
  assert.equal(restSequence(b.double).length, 0, "nothing was loaded");
});
