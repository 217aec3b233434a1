import assert from "node:assert/strict";
import { parallelTable } from "../../../lib/bench/table.ts";
import type { ResultRow } from "../../../lib/store/mod.ts";

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
