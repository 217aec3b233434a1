import assert from "node:assert/strict";
import {
  levelRow,
  type LoadRequest,
  markKnee,
  maxInFlight,
  poissonGaps,
  runConcurrency,
  runRate,
} from "../../../lib/bench/load_curve.ts";
import type { Measured } from "../../../lib/bench/measure.ts";
import { gammaGaps } from "../../../lib/bench/distributions.ts";
import { levelNotes } from "../../../lib/bench/model_load.ts";
import { runMetrics } from "../../../lib/bench/metrics.ts";
import type { ChatResult } from "../../../lib/modelserver/backend.ts";
import { workloadOf } from "../../../lib/bench/options.ts";
import { samplesOf } from "../../../lib/reports/model.ts";
import { bench, ofType, testOptions } from "./_harness.ts";

function chat(ttft: number, tokens: number, gap: number): ChatResult {
  const times = Array.from({ length: tokens }, (_, i) => ttft + i * gap);
  return {
    text: "x",
    stats: {
      tokens_in: 10,
      tokens_out: tokens,
      time_to_first_token_ms: null,
      total_time_ms: null,
      tokens_per_second: null,
    },
    client: {
      ttft_ms: ttft,
      last_token_ms: times.at(-1)!,
      total_ms: times.at(-1)! + 1,
      tokens_out: tokens,
      token_times_ms: times,
    },
    response_id: null,
  };
}

const req = (start: number, end: number, ttft: number, gap: number): LoadRequest => ({
  index: 0,
  start,
  end,
  metrics: runMetrics(chat(ttft, 11, gap)),
  error: null,
});

Deno.test("poissonGaps() is seeded and its mean is 1 ÷ rate", () => {
  assert.deepEqual(poissonGaps(4, 5, 7), poissonGaps(4, 5, 7));
  assert.notDeepEqual(poissonGaps(4, 5, 7), poissonGaps(4, 5, 8));
  const gaps = poissonGaps(4, 4000, 1);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  assert.ok(Math.abs(mean - 0.25) < 0.02, `mean ${mean}`);
  assert.ok(gaps.every((g) => g > 0));
});

Deno.test("a level's throughput, goodput and percentiles", () => {
  const reqs = [
    req(0, 500, 50, 10),
    req(0, 1000, 300, 10),
    req(500, 1000, 50, 40),
    { index: 9, start: 100, end: 200, metrics: null, error: "boom" },
  ];
  const row = levelRow("concurrency", 2, reqs, { ttft_ms: 100, tpot_ms: 20 });
  assert.equal(row.duration_ms, 1000);
  assert.equal(row.ok, 3);
  assert.equal(row.failed, 1);
  assert.equal(row.output_tokens_per_sec, 33, "3 × 11 tokens in 1 s");
  assert.equal(row.requests_per_sec, 3);
  assert.equal(row.slo_met, 1, "one has TTFT 300 > 100, one TPOT 40 > 20");
  assert.equal(row.goodput_rps, 1);
  assert.equal(row.ttft_ms_p50, 50);
  assert.ok((row.ttft_ms_p99 as number) > 290);
  assert.equal(row.itl_ms_p50, 10);
  const noSlo = levelRow("rate", 5, reqs, { ttft_ms: null, tpot_ms: null });
  assert.equal(noSlo.goodput_rps, null, "no target, no goodput");
});

Deno.test("goodput with --slo-e2el counts the requests whose whole latency meets it, with every other target", () => {
  // End-to-end latencies: 151, 401 and 451 ms (TTFT + 10 gaps + 1 ms).
  const reqs = [req(0, 500, 50, 10), req(0, 1000, 300, 10), req(500, 1000, 50, 40)];
  const e2el = (ms: number, ttft: number | null = null) =>
    levelRow("concurrency", 2, reqs, { ttft_ms: ttft, tpot_ms: null, e2el_ms: ms }).slo_met;
  assert.equal(e2el(160), 1);
  assert.equal(e2el(420), 2);
  assert.equal(e2el(420, 100), 1, "the 401 ms one misses the TTFT target");
  assert.equal(e2el(150), 0);
  const row = levelRow("concurrency", 2, reqs, { ttft_ms: null, tpot_ms: null, e2el_ms: 420 });
  assert.equal(row.goodput_rps, 2, "2 requests in 1 s");
});

Deno.test("runRate() with a burstiness sends at the gamma times of that shape", async () => {
  const f = fakeSend(5);
  const t0 = performance.now();
  const out = await runRate(f.send, 100, 8, 5, new AbortController().signal, 0.5);
  assert.deepEqual(out.map((r) => r.index), [0, 1, 2, 3, 4, 5, 6, 7]);
  const due = gammaGaps(100, 0.5, 8, 5).reduce<number[]>(
    (acc, g) => [...acc, (acc.at(-1) ?? 0) + g * 1000],
    [],
  );
  for (const r of out) {
    assert.ok(r.start - t0 >= due[r.index]! - 1, `request ${r.index} not sent before it is due`);
  }
});

Deno.test("a level bounded by a deadline sends nothing after it and waits for what is in flight", async () => {
  const f = fakeSend(30);
  const t0 = performance.now();
  const deadline = t0 + 100;
  const closed = await runConcurrency(
    f.send,
    2,
    { requests: 1000, deadline },
    new AbortController().signal,
  );
  assert.ok(closed.length >= 2 && closed.length < 1000);
  assert.ok(closed.every((r) => r.start < deadline && r.metrics !== null));
  const open = await runRate(
    f.send,
    50,
    { requests: 1000, deadline: performance.now() + 100 },
    1,
    new AbortController().signal,
  );
  assert.ok(open.length < 1000 && open.every((r) => r.metrics !== null));
});

Deno.test("the knee is the first level whose next adds less than 10 %", () => {
  const rows = [1, 2, 4, 8].map((level, i) => ({
    mode: "concurrency",
    level,
    output_tokens_per_sec: [100, 190, 200, 150][i]!,
    knee: 0,
  }));
  markKnee(rows);
  assert.deepEqual(rows.map((r) => r.knee), [0, 1, 0, 0]);
  const growing = [1, 2].map((level) => ({
    mode: "concurrency",
    level,
    output_tokens_per_sec: level * 100,
    knee: 0,
  }));
  markKnee(growing);
  assert.deepEqual(growing.map((r) => r.knee), [0, 0], "no knee within the levels tested");
});

Deno.test("a rate curve's knee is the last rate kept up with: answers completing as fast as sent", () => {
  // Offered 1, 2, 4, 8 req/s; the server completes at most 3 req/s. Output tokens/s grow between
  // every pair of levels, so comparing throughputs would find no knee at all.
  const rows = [1, 2, 4, 8].map((level) => ({
    mode: "rate",
    level,
    offered_rps: level,
    completed_rps: Math.min(level, 3),
    output_tokens_per_sec: Math.min(level, 3) * 100 + level,
    knee: 0,
  }));
  markKnee(rows);
  assert.deepEqual(rows.map((r) => r.knee), [0, 1, 0, 0]);
  const all = [1, 2].map((level) => ({
    mode: "rate",
    level,
    offered_rps: level,
    completed_rps: level,
    knee: 0,
  }));
  assert.deepEqual(markKnee(all).map((r) => r.knee), [0, 0], "kept up everywhere: no knee");
});

Deno.test("a level's sent and completed rates come from the spacing of the requests, not their latency", () => {
  // Sent 1 s apart, each answered in 5 s: the server keeps up although requests ÷ duration is low.
  const reqs = [0, 1000, 2000, 3000].map((t) => req(t, t + 5000, 100, 10));
  const row = levelRow("rate", 1, reqs, { ttft_ms: null, tpot_ms: null });
  assert.deepEqual([row.offered_rps, row.completed_rps], [1, 1]);
  assert.ok((row.requests_per_sec as number) < 0.6);
});

function fakeSend(ms: number) {
  let active = 0;
  let most = 0;
  const send = async (): Promise<Measured> => {
    const sentAt = performance.timeOrigin + performance.now();
    active++;
    most = Math.max(most, active);
    await new Promise((r) => setTimeout(r, ms));
    active--;
    return { result: chat(1, 3, 1), retried: false, instanceId: "m", sent_at_ms: sentAt };
  };
  return { send, most: () => most };
}

Deno.test("runConcurrency() keeps exactly N requests in flight", async () => {
  const f = fakeSend(15);
  const out = await runConcurrency(f.send, 3, 9, new AbortController().signal);
  assert.equal(out.length, 9);
  assert.equal(f.most(), 3);
});

Deno.test("runRate() sends at the Poisson times, whatever is in flight", async () => {
  const f = fakeSend(60);
  const t0 = performance.now();
  const out = await runRate(f.send, 200, 10, 3, new AbortController().signal);
  const starts = out.map((r) => r.start - t0).sort((a, b) => a - b);
  const expected = poissonGaps(200, 10, 3).reduce<number[]>(
    (acc, g) => [...acc, (acc.at(-1) ?? 0) + g * 1000],
    [],
  );
  for (const [i, s] of starts.entries()) {
    assert.ok(s >= expected[i]! - 1, `request ${i} sent at ${s} ms, due at ${expected[i]} ms`);
  }
  assert.ok(f.most() >= 2, "an open loop does not wait for answers");
});

Deno.test("a REST benchmark with a load curve stores every level and request", async () => {
  await using b = await bench({ tokenDelayMs: 1 });
  const workload = {
    ...workloadOf({}),
    concurrency: [1, 3],
    request_rate: [40],
    requests: 6,
    slo_ttft_ms: 10_000,
  };
  const { summary, events } = await b.run(
    "rest",
    testOptions({ workload, filters: { include_models: "qwen/qwen3-4b@q4_k_m" } }),
  );
  assert.equal(summary.outcome, "completed");
  assert.ok(b.double.state.maxActiveChats >= 3, "three streams at once at concurrency 3");
  const row = b.store.allResults()[0]!;
  const levels = b.store.loadLevelsOf(row.id);
  assert.deepEqual(levels.map((l) => [l.mode, l.level, l.requests, l.ok]), [
    ["concurrency", 1, 6, 6],
    ["concurrency", 3, 6, 6],
    ["rate", 40, 6, 6],
  ]);
  for (const l of levels) {
    assert.ok((l.output_tokens_per_sec as number) > 0);
    assert.equal(l.slo_met, 6);
    assert.ok((l.latency_ms_p99 as number) >= (l.latency_ms_p50 as number));
  }
  const runs = b.store.runsOf(row.id);
  assert.equal(runs.filter((r) => r.load_mode === "concurrency").length, 12);
  assert.equal(runs.filter((r) => r.load_mode === "rate").length, 6);
  assert.equal(runs.filter((r) => r.load_mode === null).length, 2, "the sequential runs apart");
  assert.deepEqual(
    samplesOf(runs, "tokens_per_sec").length,
    2,
    "comparisons use the measured runs only",
  );
  assert.equal(row.runs_ok, 2, "load requests are not measured runs");
  const ends = ofType(events, "load_level").filter((e) => e.figures !== null);
  assert.equal(ends.length, 3);
});

Deno.test("maxInFlight() counts the requests sent and not yet ended at the busiest moment", () => {
  assert.equal(maxInFlight([]), 0);
  assert.equal(
    maxInFlight([{ start: 0, end: 5 }, { start: 5, end: 9 }]),
    1,
    "one ends as one starts",
  );
  assert.equal(
    maxInFlight([{ start: 0, end: 100 }, { start: 1, end: 2 }, { start: 3, end: 4 }, {
      start: 3,
      end: 50,
    }]),
    3,
  );
});

Deno.test("a level says when its concurrency was never reached and when requests queued for a slot", () => {
  assert.deepEqual(levelNotes("concurrency", 4, 4, 4, 10), []);
  assert.deepEqual(levelNotes("concurrency", 32, 16, null, 16), [
    "load concurrency 32 was never reached: at most 16 request(s) were in flight (--requests 16 is below the level)",
  ]);
  assert.deepEqual(levelNotes("concurrency", 8, 8, 4, 20), [
    "load concurrency 8: up to 4 request(s) queued at a time for one of the server's 4 slot(s); their TTFT includes the wait",
  ]);
  assert.deepEqual(levelNotes("rate", 5, 3, 4, 20), [], "a rate asks for no concurrency");
});

Deno.test("a concurrency above the requests is stored with the most in flight and noted on the result", async () => {
  await using b = await bench({ tokenDelayMs: 1 });
  const workload = { ...workloadOf({}), concurrency: [8], requests: 3 };
  const { summary } = await b.run(
    "rest",
    testOptions({ workload, filters: { include_models: "qwen/qwen3-4b@q4_k_m" } }),
  );
  assert.equal(summary.outcome, "completed");
  const row = b.store.allResults()[0]!;
  const [level] = b.store.loadLevelsOf(row.id);
  assert.equal(level!.max_in_flight, 3);
  assert.match(
    String(row.warnings_json),
    /load concurrency 8 was never reached: at most 3 request\(s\) were in flight \(--requests 3/,
  );
});
