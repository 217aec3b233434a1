import assert from "node:assert/strict";
import { applyEvent, emptyProgress, etaSeconds } from "../../../lib/dashboard/status.ts";
import type { BenchEvent } from "../../../lib/bench/events.ts";

const runEnd = (run: number, runs: number): BenchEvent => ({
  type: "run_end",
  key: "a",
  run,
  runs,
  ok: true,
  error: null,
  retried: false,
  figures: null,
});

const roundEnd = (round: number): BenchEvent => ({
  type: "round_end",
  key: "a",
  round,
  rounds: 2,
  parallel: 4,
  ok: 4,
  failed: 0,
  tokens_per_sec: 80,
  wall_ms: 1000,
});

Deno.test("applyEvent() walks every phase (load, warmup, runs, parallel rounds, load levels) to 100%", () => {
  const state = { progress: emptyProgress(), model: null as string | null };
  const seen: [string, number, string][] = [];
  const apply = (e: BenchEvent) => {
    applyEvent(state, e);
    seen.push([state.progress.phase, state.progress.percent, state.progress.detail]);
  };
  apply({
    type: "job_start",
    backend: "rest",
    server: "x",
    models: ["a"],
    runs: 2,
    skipped: [],
    parallel_rounds: 2,
    load_levels: 2,
  });
  apply({ type: "model_start", key: "a", index: 1, total: 1 });
  apply({ type: "model_loaded", key: "a", load_time_ms: 10 });
  apply({ type: "warmup_done", key: "a", ms: 5 });
  apply({ type: "run_start", key: "a", run: 1, runs: 2, parallel: 1 });
  apply(runEnd(1, 2));
  apply(runEnd(2, 2));
  apply({ type: "run_start", key: "a", run: 1, runs: 2, parallel: 4 });
  apply(roundEnd(1));
  apply({ type: "run_start", key: "a", run: 2, runs: 2, parallel: 4 });
  apply(roundEnd(2));
  apply({ type: "load_level", key: "a", mode: "concurrency", level: 8, figures: null });
  apply({
    type: "load_level",
    key: "a",
    mode: "concurrency",
    level: 8,
    figures: {
      requests: 8,
      ok: 8,
      output_tokens_per_sec: 1,
      requests_per_sec: 1,
      goodput_rps: null,
      latency_ms_p99: 1,
    },
  });
  apply({ type: "model_end", key: "a", status: "ok", error: null, figures: null });
  apply({ type: "job_end", outcome: "completed", tested: 1, failed: 0, skipped: 0, error: null });
  // 8 steps: load, warmup, 2 runs, 2 rounds, 2 levels.
  assert.deepEqual(seen.map(([phase, pct]) => [phase, pct]), [
    ["loading", 0],
    ["loading", 0],
    ["warmup", 12.5],
    ["measuring", 25],
    ["measuring", 25],
    ["measuring", 37.5],
    ["measuring", 50],
    ["parallel", 50],
    ["parallel", 62.5],
    ["parallel", 62.5],
    ["parallel", 75],
    ["load", 75],
    ["load", 87.5],
    ["unloading", 100],
    ["done", 100],
  ]);
  assert.equal(seen[7]![2], "parallel round 1/2 (4 at once)");
  assert.equal(seen[11]![2], "load curve: 8 at once (level 1/2)");
  assert.equal(seen[4]![2], "run 1/2");
});

Deno.test("applyEvent() keeps where a stopped job got to", () => {
  const state = { progress: emptyProgress(), model: null as string | null };
  applyEvent(state, {
    type: "job_start",
    backend: "rest",
    server: "x",
    models: ["a", "b"],
    runs: 2,
    skipped: [],
  });
  applyEvent(state, { type: "model_start", key: "a", index: 1, total: 2 });
  applyEvent(state, { type: "model_end", key: "a", status: "ok", error: null, figures: null });
  applyEvent(state, {
    type: "job_end",
    outcome: "stopped",
    tested: 1,
    failed: 0,
    skipped: 0,
    error: null,
  });
  assert.equal(state.progress.phase, "done");
  assert.equal(state.progress.percent, 50);
});

Deno.test("etaSeconds() projects the pace so far and says nothing before a step or when done", () => {
  const p = emptyProgress();
  assert.equal(etaSeconds(p, 10_000), null);
  p.phase = "measuring";
  p.percent = 25;
  assert.equal(etaSeconds(p, 10_000), 30);
  p.percent = 100;
  assert.equal(etaSeconds(p, 10_000), 0);
  p.phase = "done";
  assert.equal(etaSeconds(p, 10_000), null);
});

Deno.test("applyEvent() moves the progress through models and runs", () => {
  const state = { progress: emptyProgress(), model: null as string | null };
  applyEvent(state, {
    type: "job_start",
    backend: "rest",
    server: "x",
    models: ["a", "b"],
    runs: 2,
    skipped: [],
  });
  applyEvent(state, { type: "model_start", key: "a", index: 1, total: 2 });
  assert.equal(state.model, "a");
  applyEvent(state, {
    type: "run_end",
    key: "a",
    run: 1,
    runs: 2,
    ok: true,
    error: null,
    retried: false,
    figures: null,
  });
  // Each model is 4 steps (load, warmup, 2 runs): model_start skips none here, so run 1 of
  // model 1 counts load and warmup too (3 of 8).
  assert.equal(state.progress.percent, 37.5);
  assert.equal(applyEvent(state, { type: "tokens", key: "a", run: 1, text: "x" }), false);
  applyEvent(state, { type: "model_end", key: "a", status: "ok", error: null, figures: null });
  assert.equal(state.progress.percent, 50);
  assert.equal(state.progress.tested, 1);
});

Deno.test("a model stopped mid-way keeps its place in the bar: it does not jump to its end", () => {
  const state = { progress: emptyProgress(), model: null as string | null };
  applyEvent(state, {
    type: "job_start",
    backend: "rest",
    server: "x",
    models: ["a"],
    runs: 4,
    skipped: [],
  });
  applyEvent(state, { type: "model_start", key: "a", index: 1, total: 1 });
  applyEvent(state, { type: "run_start", key: "a", run: 1, runs: 4, parallel: 1 });
  const before = state.progress.percent;
  applyEvent(state, {
    type: "model_end",
    key: "a",
    status: "stopped",
    error: "stopped by the user",
    figures: null,
  });
  applyEvent(state, {
    type: "job_end",
    outcome: "stopped",
    tested: 0,
    failed: 0,
    skipped: 0,
    error: null,
  });
  assert.ok(state.progress.percent < 50, `${before}% → ${state.progress.percent}%`);
});
