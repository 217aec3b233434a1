import assert from "node:assert/strict";
import { bodyToArgs } from "../../../lib/dashboard/args.ts";
import { EventHub } from "../../../lib/dashboard/events.ts";
import { applyEvent, emptyProgress } from "../../../lib/dashboard/status.ts";
import { parseWebArgs } from "../../../lib/dashboard/web_args.ts";

Deno.test("bodyToArgs() turns JSON values into the command line's arguments", () => {
  assert.deepEqual(
    bodyToArgs({
      runs: 2,
      "include-models": "qwen|gemma",
      quants: ["q4_k_m", "q8_0"],
      flash_attention: false,
      retest: true,
      dev_mode: false,
      prompt: "",
    }),
    [
      "--runs",
      "2",
      "--include-models",
      "qwen|gemma",
      "--quants",
      "q4_k_m,q8_0",
      "--no-flash-attention",
      "--retest",
    ],
  );
  assert.deepEqual(bodyToArgs({ preset: "quick_test" }), ["--preset", "quick_test"]);
  assert.throws(() => bodyToArgs({ runs: { a: 1 } }), /string or a number/);
  assert.throws(() => bodyToArgs({ runs: [1] }), /single value/);
  assert.throws(() => bodyToArgs({ export_cache: "x.json" }), /command-line action/);
});

Deno.test("bodyToArgs() takes the workload lists as numbers or digit strings", () => {
  assert.deepEqual(
    bodyToArgs({ concurrency: [1, 2, 4], prompt_tokens: ["128", "512"], slo_ttft: 200 }),
    ["--concurrency", "1,2,4", "--prompt-tokens", "128,512", "--slo-ttft", "200"],
  );
  assert.throws(() => bodyToArgs({ concurrency: [{}] }), /single value, not a list/);
  assert.throws(() => bodyToArgs({ list_models: true }), /command-line action/);
  assert.throws(() => bodyToArgs({ json: true }), /command-line action/);
});

Deno.test("EventHub replays a bounded backlog and numbers every event", () => {
  const hub = new EventHub<string>({ backlog: 2 });
  hub.publish("a");
  hub.publish("b");
  hub.publish("c");
  const seen: string[] = [];
  const off = hub.subscribe((e) => seen.push(`${e.id}:${e.event}`));
  hub.publish("d");
  off();
  hub.publish("e");
  assert.deepEqual(seen, ["2:b", "3:c", "4:d"]);
  assert.deepEqual(hub.since(4).map((e) => e.event), ["e"]);
  const bad = () => {
    throw new Error("subscriber failed");
  };
  hub.subscribe(bad, null);
  const other: string[] = [];
  hub.subscribe((e) => other.push(e.event), null);
  hub.publish("f");
  assert.deepEqual(other, ["f"]);
  assert.equal(hub.size, 1);
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

Deno.test("parseWebArgs() keeps its own flags and passes the rest to the benchmark", () => {
  const a = parseWebArgs([
    "--port=0",
    "--host",
    "0.0.0.0",
    "--token",
    "t",
    "--no-plugins",
    "--runs",
    "2",
  ]);
  assert.equal(a.port, 0);
  assert.equal(a.hostname, "0.0.0.0");
  assert.equal(a.token, "t");
  assert.equal(a.plugins, false);
  assert.deepEqual(a.benchArgs, ["--runs", "2"]);
  assert.equal(a.dev, false);
  assert.throws(() => parseWebArgs(["--no-build"]), /'--no-build' was removed/);
  const dev = parseWebArgs(["--dev", "--runs", "1"]);
  assert.equal(dev.dev, true);
  assert.deepEqual(dev.benchArgs, ["--runs", "1"]);
  assert.throws(() => parseWebArgs(["--port", "70000"]), /0\.\.65535/);
  assert.throws(() => parseWebArgs(["--host"]), /needs a value/);
});
