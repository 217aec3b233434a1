import assert from "node:assert/strict";
import { appliedParams, notAppliedNames } from "../../../lib/bench/applied.ts";
import { builtInDefaults } from "../../../lib/config/mod.ts";
import { bench, ofType, testConfig, testOptions } from "./_harness.ts";

const QWEN = "qwen/qwen3-4b@q4_k_m";

Deno.test("a REST benchmark records every value as requested and as LM Studio applied it", async () => {
  await using b = await bench();
  const config = testConfig(b.double.port);
  config.context_length = 8192;
  config.load.kv_cache_quant = "q8_0";
  config.load.n_threads = 4;
  const { summary, events } = await b.run(
    "rest",
    testOptions({ filters: { include_models: QWEN } }),
    { config },
  );
  assert.equal(summary.outcome, "completed");
  const warnings = ofType(events, "log").filter((e) => e.level === "warn").map((e) => e.message);
  const unsettable = warnings.filter((w) => /cannot set/.test(w));
  assert.equal(unsettable.length, 1, "one warning for every value REST cannot set");
  assert.match(unsettable[0]!, /REST v1 API cannot set n_threads=4, kv_cache_quant=q8_0/);
  assert.match(unsettable[0]!, /marked "not applied" in every report/);
  const row = b.store.allResults()[0]!;
  const applied = JSON.parse(String(row.applied_json));
  assert.deepEqual(applied.context_length, {
    requested: 8192,
    applied: 8192,
    status: "applied",
  }, "read back from the echoed load_config");
  assert.equal(applied["load.kv_cache_quant"]!.status, "not_applied");
  assert.equal(applied["load.kv_cache_quant"].applied, null);
  assert.equal(applied["load.n_batch"].status, "applied");
  assert.match(applied.n_parallel.note, /the server runs 4 slot\(s\)/, "loaded_instances config");
  assert.deepEqual(
    notAppliedNames(applied),
    [
      "load.n_gpu_layers",
      "load.n_threads",
      "load.use_mmap",
      "load.use_mlock",
      "load.kv_cache_quant",
    ],
  );
});

Deno.test("the SDK backend reads the context back and marks --n-parallel ignored", async () => {
  await using b = await bench();
  const config = testConfig(b.double.port);
  config.context_length = 3072;
  const { summary, events } = await b.run(
    "sdk",
    testOptions({ n_parallel: 8, given: ["n_parallel"], filters: { include_models: "qwen3-4b" } }),
    { config },
  );
  assert.equal(summary.outcome, "completed", JSON.stringify(ofType(events, "model_end")));
  const warn = ofType(events, "log").filter((e) => e.level === "warn").map((e) => e.message);
  assert.equal(warn.filter((w) => w.startsWith("--n-parallel does nothing in SDK mode")).length, 1);
  const applied = JSON.parse(String(b.store.allResults()[0]!.applied_json));
  assert.deepEqual(applied.context_length, { requested: 3072, applied: 3072, status: "applied" });
  assert.equal(applied.n_parallel.status, "ignored");
  assert.equal(applied["load.kv_cache_quant"].status, "default");
});

Deno.test("a value the server changed is marked changed with both values", () => {
  const config = builtInDefaults();
  config.context_length = 100_000;
  const applied = appliedParams({
    config,
    backend: "rest",
    n_parallel: 1,
    unified_kv_cache: false,
    server: { context_length: 32_768 },
  });
  assert.deepEqual(applied.context_length, {
    requested: 100_000,
    applied: 32_768,
    status: "changed",
    note: "the server reports another value",
  });
});

Deno.test("an OpenAI-compatible backend applies no load value; llama.cpp's are read back", () => {
  const config = builtInDefaults();
  config.context_length = 100_000;
  config.load.kv_cache_quant = "q8_0";
  const applied = appliedParams({
    config,
    backend: "openai",
    n_parallel: 2,
    unified_kv_cache: false,
    llamacpp: true,
    server: { context_length: 2048, n_threads: 2, parallel: 2 },
  });
  assert.deepEqual(applied.context_length!.applied, 2048);
  assert.equal(applied.context_length!.status, "not_applied");
  assert.equal(applied["load.kv_cache_quant"]!.status, "not_applied");
  assert.equal(applied["load.n_threads"]!.status, "default", "-1 asks for the server's default");
  assert.equal(applied["load.n_threads"]!.applied, 2);
  assert.equal(applied["inference.temperature"]!.status, "applied", "llama.cpp applies sampling");
  const other = appliedParams({
    config,
    backend: "openai",
    n_parallel: 1,
    unified_kv_cache: false,
  });
  assert.equal(other["inference.temperature"]!.status, "sent", "other servers do not confirm it");
});
