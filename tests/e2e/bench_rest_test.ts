import assert from "node:assert/strict";
import { JobController } from "../../lib/bench/job_control.ts";
import { promptWithNonce } from "../../lib/bench/measure.ts";
import { waitFor } from "../_helpers.ts";
import {
  bench,
  chatBodies,
  ofType,
  restSequence,
  testConfig,
  testOptions,
} from "../lib/bench/_harness.ts";

const QWEN = "qwen/qwen3-4b@q4_k_m";
const QWEN8 = "qwen/qwen3-4b@q8_0";

Deno.test("a REST benchmark loads, warms up, measures and unloads each model in turn", async () => {
  await using b = await bench();
  const { summary, events } = await b.run(
    "rest",
    testOptions({ filters: { include_models: "qwen3-4b" } }),
  );
  assert.equal(summary.outcome, "completed");
  assert.deepEqual(summary.tested, [QWEN, QWEN8]);
  assert.deepEqual(restSequence(b.double), [
    `load:${QWEN}`,
    `chat:${QWEN}`, // warmup
    `chat:${QWEN}`,
    `chat:${QWEN}`,
    `unload:${QWEN}`,
    `load:${QWEN8}`,
    `chat:${QWEN8}`,
    `chat:${QWEN8}`,
    `chat:${QWEN8}`,
    `unload:${QWEN8}`,
  ]);
  const chats = chatBodies(b.double);
  assert.ok(chats.every((c) => c.store === false), "no chat is stored on the server");
  assert.ok(chats.every((c) => c.stream === true));
  const firstModel = events.slice(
    events.findIndex((e) => e.type === "model_start"),
    events.findIndex((e) => e.type === "model_end") + 1,
  ).map((e) => e.type).filter((t) => t !== "tokens");
  assert.deepEqual(firstModel, [
    "model_start",
    "model_loaded",
    "warmup_done",
    "run_start",
    "run_end",
    "run_start",
    "run_end",
    "model_end",
  ]);
  assert.equal(events.at(-1)!.type, "job_end");
  const rows = b.store.allResults();
  assert.deepEqual(rows.map((r) => [r.model_key, r.status, r.runs_ok, r.backend]), [
    [QWEN, "ok", 2, "rest"],
    [QWEN8, "ok", 2, "rest"],
  ]);
  const row = rows[0]!;
  for (const col of ["tokens_per_sec_mean", "ttft_ms_mean", "server_tokens_per_sec_mean"]) {
    assert.equal(typeof row[col], "number", col);
  }
  assert.equal(typeof row.warmup_ms, "number");
  assert.equal(row.quantization, "q4_k_m");
  const runs = b.store.runsOf(row.id);
  assert.deepEqual(runs.map((r) => [r.run_index, r.status, r.retried]), [[0, "ok", 0], [
    1,
    "ok",
    0,
  ]]);
  assert.equal(runs[0]!.tokens_out, 16);
  assert.ok((runs[0]!.server_tokens_per_sec as number) > 0, "server figures stored beside");
});

Deno.test("every measured run sends a different prompt starting with a fresh nonce", async () => {
  await using b = await bench();
  await b.run("rest", testOptions({ filters: { include_models: QWEN } }));
  const inputs = chatBodies(b.double).map((c) => String(c.input));
  assert.equal(inputs.length, 3);
  assert.equal(new Set(inputs).size, 3, "warmup and both runs differ");
  const prompt = testConfig(0).prompt;
  for (const input of inputs) {
    assert.match(input, /^\[[0-9a-f]{8}\] /);
    assert.ok(input.endsWith(prompt));
  }
  assert.equal(promptWithNonce("p", "abc"), "[abc] p");
});

Deno.test("a second benchmark skips cached models and --retest measures again, keeping history", async () => {
  await using b = await bench();
  const opts = testOptions({ filters: { include_models: QWEN } });
  await b.run("rest", opts);
  const loadsBefore = restSequence(b.double).filter((s) => s.startsWith("load:")).length;
  const second = await b.run("rest", opts);
  assert.deepEqual(second.summary.tested, []);
  assert.ok(second.summary.skipped.includes(QWEN));
  const skip = ofType(second.events, "model_skip").find((e) => e.key === QWEN)!;
  assert.match(skip.reason, /^cached/);
  assert.equal(
    restSequence(b.double).filter((s) => s.startsWith("load:")).length,
    loadsBefore,
    "nothing was loaded",
  );
  const third = await b.run("rest", { ...opts, retest: true });
  assert.deepEqual(third.summary.tested, [QWEN]);
  const rows = b.store.allResults().filter((r) => r.model_key === QWEN);
  assert.equal(rows.length, 2, "the old result is kept");
  assert.equal(b.store.findCached(QWEN, third.summary.paramsHash, null)!.id, rows[1]!.id);
});

Deno.test("a changed parameter is a cache miss", async () => {
  await using b = await bench();
  const opts = testOptions({ filters: { include_models: QWEN } });
  const first = await b.run("rest", opts);
  const config = testConfig(b.double.port);
  config.inference.temperature = 0.7;
  const second = await b.run("rest", opts, { config });
  assert.notEqual(second.summary.paramsHash, first.summary.paramsHash);
  assert.deepEqual(second.summary.tested, [QWEN]);
});

Deno.test("a cached result with fewer runs than asked is measured again, one with as many is not", async () => {
  await using b = await bench();
  const opts = testOptions({ filters: { include_models: QWEN } });
  const config = testConfig(b.double.port);
  config.num_runs = 1;
  const first = await b.run("rest", opts, { config });
  assert.deepEqual(first.summary.tested, [QWEN]);
  config.num_runs = 2;
  const more = await b.run("rest", opts, { config });
  assert.deepEqual(more.summary.tested, [QWEN], "2 runs asked after 1: measured again");
  config.num_runs = 1;
  const fewer = await b.run("rest", opts, { config });
  assert.deepEqual(fewer.summary.tested, [], "1 run asked after 2: cached");
  assert.ok(fewer.summary.skipped.includes(QWEN));
});

/** The models a job would measure (the job is stopped at its start, nothing is loaded). */
async function selected(
  filters: Parameters<typeof testOptions>[0],
): Promise<string[]> {
  await using b = await bench();
  const { events } = await b.run("rest", testOptions(filters), {
    onEvent: (e, control) => {
      if (e.type === "job_start") control.stop();
    },
  });
  assert.equal(restSequence(b.double).length, 0);
  return ofType(events, "job_start")[0]!.models;
}

Deno.test("the filters select the models to measure", async () => {
  const all = await selected({});
  assert.deepEqual(all, [
    "google/gemma-4-26b-a4b@q4_k_m",
    QWEN,
    QWEN8,
    "mistralai/ministral-3-3b@q4_k_m",
    "deepseek/deepseek-r1-0528-qwen3-8b@q4_k_m",
  ], "every language-model variant, embeddings left out");
  assert.deepEqual(await selected({ filters: { only_vision: true } }), [
    "google/gemma-4-26b-a4b@q4_k_m",
    "mistralai/ministral-3-3b@q4_k_m",
  ]);
  assert.deepEqual(await selected({ filters: { only_tools: true } }), [
    "google/gemma-4-26b-a4b@q4_k_m",
    QWEN,
    QWEN8,
  ]);
  assert.deepEqual(await selected({ filters: { quants: ["Q8_0"] } }), [QWEN8]);
  assert.deepEqual(await selected({ filters: { include_models: "^qwen/|ministral" } }), [
    QWEN,
    QWEN8,
    "mistralai/ministral-3-3b@q4_k_m",
  ]);
  assert.deepEqual(await selected({ filters: { exclude_models: "^qwen/|gemma" } }), [
    "mistralai/ministral-3-3b@q4_k_m",
    "deepseek/deepseek-r1-0528-qwen3-8b@q4_k_m",
  ]);
  assert.deepEqual(await selected({ filters: { max_size: 3 } }), [
    QWEN,
    "mistralai/ministral-3-3b@q4_k_m",
  ]);
  assert.deepEqual(await selected({ filters: { min_context: 131072 } }), [
    "google/gemma-4-26b-a4b@q4_k_m",
    "mistralai/ministral-3-3b@q4_k_m",
    "deepseek/deepseek-r1-0528-qwen3-8b@q4_k_m",
  ]);
  assert.deepEqual(await selected({ limit: 2 }), ["google/gemma-4-26b-a4b@q4_k_m", QWEN]);
  assert.deepEqual(await selected({ dev_mode: true }), ["mistralai/ministral-3-3b@q4_k_m"]);
});

Deno.test("an embedding model of the server gets a skip line with its reason, not silence", async () => {
  await using b = await bench();
  const { events, summary } = await b.run(
    "rest",
    testOptions({ filters: { include_models: QWEN } }),
  );
  const skip = ofType(events, "model_skip").find((e) => /embed/i.test(e.key));
  assert.ok(skip, "a skip event for the embedding model");
  assert.equal(skip.reason, "an embedding model, not a language model: nothing to generate");
  assert.ok(summary.skipped.includes(skip.key));
});

Deno.test("a pause during a model's load holds its warmup until the resume", async () => {
  await using b = await bench();
  const control = new JobController();
  let pausedAt = -1;
  const job = b.run("rest", testOptions({ filters: { include_models: QWEN } }), {
    control,
    onEvent: (e) => {
      if (e.type === "model_loaded") {
        control.pause();
        pausedAt = b.double.state.requests.length;
      }
    },
  });
  await waitFor(() => pausedAt >= 0, "the load");
  await new Promise((r) => setTimeout(r, 300));
  const chats = b.double.state.requests.slice(pausedAt).filter((r) => r.path === "/api/v1/chat");
  assert.deepEqual(chats, [], "no warmup while paused");
  control.resume();
  const { summary } = await job;
  assert.deepEqual(summary.tested, [QWEN]);
});
