/**
 * Production-like workloads on the real engine: llama.cpp's `llama-server` with the generated
 * models (`deno task engine:setup`), through `cli.ts` with the OpenAI-compatible backend: a
 * dataset's requests with their output lengths forced (`ignore_eos`), lengths drawn around the
 * targets, and a bursty, timed rate level with an end-to-end latency target. Ignored only when
 * the engine is not built (CI builds it first).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findEngine, type LlamaServer, startLlamaServer } from "../../lib/engine/mod.ts";
import { REPO_ROOT, type TempEnv, tempEnv } from "../_helpers.ts";
import { engineCli, storedResults } from "./_engine_cli.ts";

const engine = findEngine();

/** The CLI on the real server, one sequential stream on tiny-a. */
const cli = (args: string[], env: TempEnv, server: LlamaServer) =>
  engineCli(["--n-parallel", "1", "--include-models", "^tiny-a$", ...args], env, server);

const runsOf = (env: TempEnv) => storedResults(env).flatMap((r) => r.runs);

Deno.test({
  name:
    "on the real llama-server a dataset's prompts are sent with their output lengths forced, and warm-ups are not stored",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 1, modelsMax: 1 });
    const file = join(env.root, "d.jsonl");
    const words = (n: number) => Array.from({ length: n }, () => "river").join(" ");
    await Deno.writeTextFile(
      file,
      [
        { prompt: words(2), output_tokens: 5 },
        { prompt: words(60), output_tokens: 9 },
        { prompt: words(200), output_tokens: 13 },
      ].map((x) => JSON.stringify(x)).join("\n"),
    );
    const r = await cli(
      ["--runs", "3", "--warmup-requests", "3", "--dataset", file, "--save-requests", "r.jsonl"],
      env,
      server,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /cannot force the output length/, "llama.cpp forces it");
    const runs = runsOf(env);
    assert.equal(runs.length, 3, "the three warm-ups are not stored");
    assert.deepEqual(runs.map((x) => x.tokens_out), [5, 9, 13], "ignore_eos: every target reached");
    assert.deepEqual(runs.map((x) => x.stopped_early), [0, 0, 0]);
    const tokensIn = runs.map((x) => x.tokens_in as number);
    assert.ok(
      tokensIn[0]! < tokensIn[1]! && tokensIn[1]! < tokensIn[2]!,
      `the dataset's prompts, in order: ${tokensIn}`,
    );
    assert.ok(tokensIn[2]! >= 200, "the long prompt was sent whole");
    const lines = (await Deno.readTextFile(join(env.dataDir, "results", "r.jsonl"))).trimEnd()
      .split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.output_tokens_target, l.stopped_early]), [
      [5, false],
      [9, false],
      [13, false],
    ]);
  },
});

Deno.test({
  name: "on the real llama-server drawn prompt and output lengths are each met exactly",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 1, modelsMax: 1 });
    const r = await cli(
      [
        ...["--runs", "5", "--prompt-tokens", "64", "--gen-tokens", "16"],
        ...["--prompt-tokens-stddev", "16", "--gen-tokens-stddev", "4", "--seed", "3"],
      ],
      env,
      server,
    );
    assert.equal(r.code, 0, r.stderr);
    const runs = runsOf(env);
    assert.equal(runs.length, 5);
    for (const run of runs) {
      assert.equal(run.tokens_in, run.prompt_tokens_target, "the tokenizer met the drawn length");
      assert.equal(run.tokens_out, run.gen_tokens_target, "ignore_eos met the drawn length");
      assert.equal(run.stopped_early, 0);
    }
    assert.ok(new Set(runs.map((x) => x.prompt_tokens_target)).size > 1, "lengths are drawn");
  },
});

Deno.test({
  name:
    "on the real llama-server a bursty rate level runs for its duration and counts goodput on end-to-end latency",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 2, modelsMax: 1 });
    const r = await cli(
      [
        ...["--runs", "1", "--gen-tokens", "8", "--request-rate", "20", "--burstiness", "0.5"],
        ...["--duration", "1", "--slo-e2el", "60000", "--json"],
      ],
      env,
      server,
    );
    assert.equal(r.code, 0, r.stderr);
    const entry = JSON.parse(r.stdout).results[0];
    const level = entry.load_curve[0];
    assert.equal(level.mode, "rate");
    assert.ok(level.requests >= 2, `requests sent in 1 s at 20/s: ${level.requests}`);
    assert.equal(level.slo_met, level.ok, "every answer within a minute");
    const load = runsOf(env).filter((x) => x.load_mode === "rate");
    assert.equal(load.length, level.requests);
    const starts = load.map((x) => x.started_at_ms as number);
    const first = Math.min(...starts);
    assert.ok(starts.every((s) => s - first < 1000), "nothing sent after the duration");
  },
});

Deno.test({
  name:
    "on the real llama-server the shipped ShareGPT dataset's replies are counted by the model's tokenizer and generated to that length",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 1, modelsMax: 1 });
    const dataset = join(REPO_ROOT, "data", "sharegpt_small.json");
    const r = await cli(
      ["--runs", "3", "--dataset", dataset, "--dataset-sample", "3", "--seed", "5", "--json"],
      env,
      server,
    );
    assert.equal(r.code, 0, r.stderr);
    const entry = JSON.parse(r.stdout).results[0];
    assert.equal(entry.workload.dataset.output_tokens_method, "tokenizer");
    assert.equal(entry.workload.dataset.requests, 3);
    const runs = runsOf(env);
    assert.equal(runs.length, 3);
    for (const run of runs) {
      assert.ok((run.gen_tokens_target as number) >= 1);
      assert.equal(run.tokens_out, run.gen_tokens_target, "ignore_eos: the reply's length");
    }
  },
});
