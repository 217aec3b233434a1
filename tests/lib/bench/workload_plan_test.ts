import assert from "node:assert/strict";
import { workloadOf } from "../../../lib/bench/options.ts";
import { countReplies, WorkloadPlan } from "../../../lib/bench/workload_plan.ts";
import type { Dataset } from "../../../lib/bench/dataset.ts";
import type { Backend } from "../../../lib/modelserver/backend.ts";
import { samplingOf } from "../../../lib/bench/measure.ts";
import { builtInDefaults } from "../../../lib/config/mod.ts";
import { bench, testConfig, testOptions } from "./_harness.ts";

/** A backend that only says whether it forces output lengths (a dataset plan asks nothing else). */
const forcing = { outputControl: () => Promise.resolve("exact") } as unknown as Backend;

const SAMPLING = samplingOf(builtInDefaults());

const DATASET: Dataset = {
  path: "d.jsonl",
  format: "jsonl",
  sha256: "0123456789abcdef",
  entries: [{ prompt: "one", output_tokens: 5 }, { prompt: "two", output_tokens: null }],
  skipped: 0,
};

Deno.test("a dataset plan sends its entries in order, wrapping, each with its output target", async () => {
  const plan = await WorkloadPlan.prepare(forcing, "m", workloadOf({}), SAMPLING, DATASET);
  assert.equal(plan.controlled, true);
  const cell = plan.cells[0]!;
  const sent = [];
  for (let i = 0; i < 3; i++) sent.push(await plan.request(cell, `n${i}`));
  assert.deepEqual(sent.map((r) => r.shape), [
    { content: "[n0] one", max_tokens: 5, exact_output: true },
    { content: "[n1] two" },
    { content: "[n2] one", max_tokens: 5, exact_output: true },
  ]);
  assert.deepEqual(sent.map((r) => r.gen_target), [5, null, 5]);
  // Warm-ups take entries by their own index and leave the measured sequence where it was.
  assert.equal((await plan.warmupRequest(1, "w")).shape.content, "[w] two");
  assert.equal((await plan.request(cell, "n3")).shape.content, "[n3] two");
  assert.deepEqual(plan.summary().dataset, {
    path: "d.jsonl",
    format: "jsonl",
    sha256: "0123456789abcdef",
    requests: 2,
    skipped: 0,
  });
});

Deno.test("a plan with a spread draws each output length around the cell's, reproducibly", async () => {
  const w = { ...workloadOf({}), gen_tokens: [100], gen_tokens_stddev: 20, seed: 3 };
  const draws = async () => {
    const plan = await WorkloadPlan.prepare(forcing, "m", w, SAMPLING);
    const out: number[] = [];
    for (let i = 0; i < 400; i++) out.push((await plan.request(plan.cells[0]!, "n")).gen_target!);
    return out;
  };
  const a = await draws();
  assert.deepEqual(await draws(), a, "the same seed, the same lengths");
  const mean = a.reduce((x, y) => x + y, 0) / a.length;
  assert.ok(Math.abs(mean - 100) < 4, `mean ${mean}`);
  assert.ok(new Set(a).size > 20, "lengths spread");
  const plan = await WorkloadPlan.prepare(forcing, "m", w, SAMPLING);
  assert.equal((await plan.warmupRequest(0, "w")).gen_target, 100, "a warm-up asks the target");
  assert.deepEqual(plan.summary().gen_tokens_spread, { stddev: 20, range_ratio: 0 });
});

Deno.test("an SDK benchmark with --range-ratio measures prompts of each drawn length exactly", async () => {
  await using b = await bench();
  const workload = {
    ...workloadOf({}),
    prompt_tokens: [100],
    gen_tokens: [12],
    range_ratio: 0.5,
  };
  const { summary } = await b.run(
    "sdk",
    testOptions({ workload, filters: { include_models: "qwen3-4b" } }),
    { config: { ...testConfig(b.double.port), num_runs: 6 } },
  );
  assert.equal(summary.outcome, "completed");
  const row = b.store.allResults().at(-1)!;
  const runs = b.store.runsOf(row.id);
  const prompts = runs.map((r) => r.prompt_tokens_target as number);
  const gens = runs.map((r) => r.gen_tokens_target as number);
  assert.ok(prompts.every((p) => p >= 50 && p <= 150), prompts.join(","));
  assert.ok(gens.every((g) => g >= 6 && g <= 18), gens.join(","));
  assert.ok(new Set(prompts).size > 1, "the lengths are drawn, not all the target");
  assert.deepEqual(runs.map((r) => r.tokens_in), prompts, "each prompt has its drawn length");
  assert.deepEqual(runs.map((r) => r.tokens_out), gens, "each answer reaches its drawn length");
  assert.deepEqual(runs.map((r) => r.stopped_early), gens.map(() => 0));
  const grid = b.store.gridOf(row.id);
  assert.deepEqual(grid.map((c) => [c.prompt_tokens, c.gen_tokens, c.runs]), [[100, 12, 6]]);
});

Deno.test("ShareGPT replies are counted by the server's tokenizer where it has one, else estimated", async () => {
  const shareGpt: Dataset = {
    ...DATASET,
    format: "sharegpt",
    entries: [
      { prompt: "q1", output_tokens: 3, reply: "a".repeat(10) },
      { prompt: "q2", output_tokens: 25, reply: "b".repeat(100) },
    ],
  };
  // A tokenizer of two characters a token, with a chat template of 7 tokens.
  const tokenizer = {
    promptTokens: (_m: string, msgs: { content: string }[]) =>
      Promise.resolve(Math.ceil(msgs[0]!.content.length / 2) + 7),
  } as unknown as Backend;
  const counted = await countReplies(tokenizer, "m", shareGpt);
  assert.deepEqual(counted.entries.map((e) => e.output_tokens), [5, 50]);
  assert.equal(counted.output_tokens_method, "tokenizer");
  const none = { promptTokens: () => Promise.resolve(null) } as unknown as Backend;
  const estimated = await countReplies(none, "m", shareGpt);
  assert.deepEqual(estimated.entries.map((e) => e.output_tokens), [3, 25]);
  assert.equal(estimated.output_tokens_method, "estimated");
  assert.equal(await countReplies(tokenizer, "m", DATASET), DATASET, "JSON Lines targets stay");
});
