import assert from "node:assert/strict";
import {
  latencyPercentileTable,
  loadPercentileTable,
  percentileLabel,
  percentilesOf,
} from "../../../lib/bench/table_percentiles.ts";
import type { ResultRow, Row } from "../../../lib/store/mod.ts";

const ROW = {
  id: 1,
  model_name: "org/m",
  model_key: "org/m@q4",
  quantization: "q4",
} as unknown as ResultRow;

Deno.test("percentiles are labelled as given and read from the samples", () => {
  assert.deepEqual([50, 99.9, 95].map(percentileLabel), ["p50", "p99.9", "p95"]);
  const xs = Array.from({ length: 1001 }, (_, i) => i);
  const [p50, p999] = percentilesOf(xs, [50, 99.9]);
  assert.equal(p50, 500);
  assert.ok(Math.abs(p999! - 999) < 1e-9, `p99.9 ${p999}`);
  assert.deepEqual(percentilesOf([], [50]), [null]);
});

Deno.test("the latency table shows the chosen percentiles of the measured runs only", () => {
  const runs: Row[] = [
    ...Array.from({ length: 100 }, (_, i) => ({ ttft_ms: i + 1, tpot_ms: 5, total_ms: 100 + i })),
    { ttft_ms: 9_999, load_mode: "rate", load_level: 1 },
    { ttft_ms: 9_999, parallel: 4 },
    { ttft_ms: 9_999, status: "failed" },
  ];
  const table = latencyPercentileTable([{ row: ROW, runs }], [50, 99.9]);
  const [head, , line] = table.split("\n");
  assert.match(head!, /^Latency \(ms\)\s+Quant\s+TTFT mean\s+TTFT p50\s+TTFT p99\.9\s+TPOT mean/);
  assert.match(head!, /E2EL mean\s+E2EL p50\s+E2EL p99\.9$/);
  // TTFT 1..100: mean 50.5, p50 50.5, p99.9 99.90 — the load, parallel and failed runs left out.
  assert.match(line!, /^org\/m\s+q4\s+50\.50\s+50\.50\s+99\.90\s+5\.00\s+5\.00\s+5\.00/);
});

Deno.test("the load table shows the chosen percentiles of each level's own requests", () => {
  const levels: Row[] = [
    { mode: "concurrency", level: 2, ok: 4, requests: 4, knee: 1 },
    { mode: "rate", level: 1.5, ok: 2, requests: 2, knee: 0 },
  ];
  const runs: Row[] = [
    ...[10, 20, 30, 40].map((t) => ({ load_mode: "concurrency", load_level: 2, total_ms: t })),
    ...[500, 700].map((t) => ({ load_mode: "rate", load_level: 1.5, total_ms: t })),
    { total_ms: 99_999 },
  ];
  const table = loadPercentileTable([{ row: ROW, levels, runs }], [50, 95]);
  const lines = table.split("\n");
  assert.match(
    lines[0]!,
    /latency p50\s+latency p95\s+TTFT p50\s+TTFT p95\s+TPOT p50\s+TPOT p95\s+knee$/,
  );
  assert.match(lines[2]!, /^org\/m@q4\s+c=2\s+4\/4\s.*\s25\s+39\s.*◀ knee$/);
  assert.match(lines[3]!, /^org\/m@q4\s+1\.5\/s\s+2\/2\s.*\s600\s+690\s/);
});
