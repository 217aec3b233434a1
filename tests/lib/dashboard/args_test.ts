import assert from "node:assert/strict";
import { bodyToArgs } from "../../../lib/dashboard/args.ts";

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
  // A page never names a file the server reads, nor sets what only the console prints.
  assert.throws(() => bodyToArgs({ dataset: "/etc/passwd" }), /command-line action/);
  assert.throws(() => bodyToArgs({ percentiles: [50, 99] }), /command-line action/);
});
