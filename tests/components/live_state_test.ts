import assert from "node:assert/strict";
import { formatEta, initialLive, type LiveState, reduceLive } from "../../components/live_state.ts";
import type { LiveEvent } from "../../components/bench_events.ts";

const fold = (events: LiveEvent[], from: LiveState = initialLive("idle")) =>
  events.reduce((s, e) => reduceLive(s, e, 1000), from);

const status = (status: string, started_at: string | null, extra: Record<string, unknown> = {}) =>
  ({ type: "status", status, started_at, model: null, outcome: null, ...extra }) as LiveEvent;

Deno.test("reduceLive() starts a new run from a clean state", () => {
  const first = fold([
    status("running", "2026-01-01T00:00:00Z"),
    { type: "job_start", models: ["a"], server: "s", profiling: false },
    { type: "run_end", key: "a", run: 1, ok: true, figures: { tokens_per_sec: 10 } },
    status("idle", "2026-01-01T00:00:00Z"),
  ]);
  assert.match(first.output, /10\.0 tok\/s/);
  assert.equal(first.profiling, false);
  const second = fold([status("running", "2026-01-01T00:05:00Z")], first);
  assert.equal(second.output, "");
  assert.deepEqual(second.runs, []);
  assert.equal(second.profiling, null);
  assert.equal(second.startedAt, "2026-01-01T00:05:00Z");
});

Deno.test("reduceLive() keeps a failed start's error and its idle outcome", () => {
  const s = fold([
    status("running", "2026-01-01T00:00:00Z"),
    { type: "log", level: "error", message: "Benchmark not started: no server" },
    status("idle", null, { outcome: { outcome: "failed", error: "no server", tested: 0 } }),
  ]);
  assert.equal(s.status, "idle");
  assert.deepEqual(s.errors, ["Benchmark not started: no server"]);
  assert.equal(s.outcome?.outcome, "failed");
  assert.match(s.output, /\[error\] Benchmark not started: no server/);
});

Deno.test("reduceLive() writes every phase: load, warmup, runs, parallel rounds, load levels", () => {
  const s = fold([
    { type: "model_start", key: "a", index: 1, total: 1 },
    { type: "model_loaded", key: "a", load_time_ms: 1500 },
    { type: "warmup_done", key: "a", ms: 250 },
    { type: "run_start", key: "a", run: 1, runs: 1, parallel: 1 },
    { type: "run_end", key: "a", run: 1, ok: true, figures: { tokens_per_sec: 20 } },
    { type: "run_start", key: "a", run: 1, runs: 1, parallel: 4 },
    {
      type: "round_end",
      key: "a",
      round: 1,
      rounds: 1,
      parallel: 4,
      ok: 4,
      failed: 0,
      tokens_per_sec: 64,
      wall_ms: 2000,
    },
    { type: "load_level", key: "a", mode: "concurrency", level: 8, figures: null },
    {
      type: "load_level",
      key: "a",
      mode: "concurrency",
      level: 8,
      figures: {
        requests: 8,
        ok: 8,
        output_tokens_per_sec: 90,
        requests_per_sec: 1.5,
        latency_ms_p99: 900,
      },
    },
  ]);
  for (
    const line of [
      "== a (1/1): loading",
      "loaded in 1.5 s; warmup",
      "warmup done in 0.3 s",
      "run 1/1:",
      "parallel round 1/1: 4 requests at once…",
      "→ 64.0 tok/s together, 4/4 ok in 2.0 s",
      "load curve: 8 at once…",
      "→ 8/8 ok, 90.0 tok/s out, 1.50 req/s, latency p99 900 ms",
    ]
  ) assert.ok(s.output.includes(line), `missing: ${line}\n${s.output}`);
  assert.deepEqual(s.runs.map((r) => [r.kind, r.speed]), [["run", 20], ["round", 64]]);
  assert.deepEqual(s.runs.map((r) => [r.key, r.label]), [["a", "run 1"], ["a", "×4 round 1"]]);
});

Deno.test("reduceLive() takes the phase, the percent and the ETA from a status", () => {
  const s = fold([
    status("running", "t", {
      progress: { percent: 40, phase: "parallel", detail: "x", eta_s: 90 },
    }),
  ]);
  assert.equal(s.percent, 40);
  assert.equal(s.detail, "x");
  assert.equal(s.etaS, 90);
  assert.equal(s.etaAt, 1000);
});

Deno.test("formatEta() reads as time left", () => {
  assert.equal(formatEta(42.4), "about 42 s left");
  assert.equal(formatEta(80), "about 1 min 20 s left");
  assert.equal(formatEta(3725), "about 1 h 2 min left");
  assert.equal(formatEta(-3), "about 0 s left");
});

Deno.test("reduceLive() never splices a line into the streamed text: a stop starts its own line", () => {
  const s = fold([
    status("running", "2026-01-01T00:00:00Z"),
    { type: "run_start", key: "a", run: 1, runs: 3 },
    { type: "tokens", text: "The answer is" },
    { type: "model_end", key: "a", status: "stopped", error: "stopped by the user" },
  ]);
  assert.match(s.output, /^run 1\/3:\nThe answer is\na: stopped \(stopped by the user\)\n$/);
});
