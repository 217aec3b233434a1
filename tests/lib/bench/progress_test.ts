import assert from "node:assert/strict";
import type { BenchEvent } from "../../../lib/bench/events.ts";
import { bar, createProgress, formatDuration } from "../../../lib/bench/progress.ts";

const EVENTS: BenchEvent[] = [
  {
    type: "job_start",
    backend: "rest",
    server: "LM Studio",
    models: ["m1"],
    runs: 2,
    skipped: ["c"],
  },
  { type: "model_skip", key: "c", reason: "cached (use --retest to measure again)" },
  { type: "model_start", key: "m1", index: 1, total: 1 },
  { type: "model_loaded", key: "m1", load_time_ms: 1500 },
  { type: "warmup_done", key: "m1", ms: 100 },
  { type: "run_start", key: "m1", run: 1, runs: 2, parallel: 1 },
  {
    type: "run_end",
    key: "m1",
    run: 1,
    runs: 2,
    ok: true,
    error: null,
    retried: true,
    figures: { tokens_per_sec: 42.2, ttft_ms: 120, tokens_out: 64, total_ms: 1600 },
  },
  { type: "run_start", key: "m1", run: 2, runs: 2, parallel: 1 },
  {
    type: "run_end",
    key: "m1",
    run: 2,
    runs: 2,
    ok: false,
    error: "boom",
    retried: false,
    figures: null,
  },
  {
    type: "model_end",
    key: "m1",
    status: "partial",
    error: null,
    figures: { tokens_per_sec_mean: 42.25, ttft_ms_mean: 120, runs_ok: 1, runs_failed: 1 },
  },
  {
    type: "job_end",
    outcome: "completed",
    tested: 1,
    partial: 1,
    failed: 0,
    skipped: 1,
    error: null,
  },
];

function render(tty: boolean): string {
  let out = "";
  let t = 0;
  const show = createProgress({ write: (s) => (out += s), tty }, { now: () => t });
  for (const e of EVENTS) {
    t += 1000; // one second per event
    show(e);
  }
  return out;
}

Deno.test("plain output is one line per step with no control characters", () => {
  const out = render(false);
  assert.ok(!out.includes("\r") && !out.includes("\x1b"));
  assert.deepEqual(out.trimEnd().split("\n"), [
    "Benchmarking 1 model(s) × 2 run(s) on LM Studio (1 skipped)",
    "  skip c: cached (use --retest to measure again)",
    "[1/1] m1: loading",
    "  loaded in 1.50 s; warmup",
    "  run 1/2: 42.2 tok/s, TTFT 120 ms, 64 tokens (model reloaded, repeated once)",
    "  run 2/2 failed: boom",
    "  ◐ partial: m1: 42.25 tok/s, TTFT 120 ms (1 run(s), 1 failed)",
    "Done in 10s: 1 measured (1 partial: some runs failed), 0 failed, 1 skipped",
  ]);
});

Deno.test("a stopped job says it stopped, not done", () => {
  let out = "";
  const show = createProgress({ write: (s) => (out += s), tty: false }, { now: () => 0 });
  show({ type: "job_end", outcome: "stopped", tested: 0, failed: 0, skipped: 0, error: null });
  assert.equal(out.trimEnd(), "Stopped after 0s: 0 measured, 0 failed, 0 skipped");
});

Deno.test("a terminal gets a bar redrawn in place with the last speed and an ETA", () => {
  const out = render(true);
  assert.ok(out.includes("\r\x1b[2K[1/1] m1 [--------------------] run 1/2  last - tok/s  ETA -"));
  // One run done 6 s after the job started, one to go: ETA 6 s.
  assert.ok(
    out.includes("\r\x1b[2K[1/1] m1 [##########----------] run 1/2  last 42.2 tok/s  ETA 6s"),
  );
  assert.ok(out.includes("  run 2/2 failed: boom\n"), "failures stay on screen");
  assert.ok(!out.includes("  run 1/2: 42.2"), "successful runs are not printed as lines");
});

Deno.test("durations and bars are formatted compactly", () => {
  assert.equal(formatDuration(12_400), "12s");
  assert.equal(formatDuration(185_000), "3m05s");
  assert.equal(formatDuration(3_720_000), "1h02m");
  assert.equal(bar(1, 4, 8), "[##------]");
  assert.equal(bar(0, 0, 4), "[----]");
});

Deno.test("a terminal shows 'waiting for the server… Ns' after the status and redraws it after", () => {
  let out = "";
  const progress = createProgress({ write: (t) => void (out += t), tty: true }, { now: () => 0 });
  progress({
    type: "job_start",
    backend: "rest",
    server: "S",
    models: ["m1"],
    runs: 1,
    skipped: [],
  });
  progress({ type: "model_start", key: "/models/tiny-a.gguf", index: 1, total: 1 });
  progress({ type: "run_start", key: "/models/tiny-a.gguf", run: 1, runs: 1, parallel: 1 });
  out = "";
  progress.waiting("chat with 'm1'", 3);
  assert.ok(out.endsWith("  waiting for the server… 3s (chat with 'm1')"));
  assert.ok(out.includes("[1/1] tiny-a ["), "the model's short name, and the status stays");
  out = "";
  progress.waiting(null, 0);
  assert.ok(out.startsWith("\r\x1b[2K[1/1] tiny-a ["));
  assert.ok(!out.includes("waiting"));
});

Deno.test("plain output never shows the waiting line", () => {
  let out = "";
  const progress = createProgress({ write: (t) => void (out += t), tty: false });
  progress.waiting("list models", 5);
  progress.waiting(null, 0);
  assert.equal(out, "");
});
