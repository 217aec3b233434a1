/**
 * `--kv-depth`: decode speed after a filled context (llama-bench `-d`), one identity per depth,
 * through `cli.ts` against the LM Studio double (REST: calibrated lengths) and the real
 * llama-server (exact lengths by its tokenizer; ignored when the engine is not built).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findEngine, startLlamaServer } from "../../lib/engine/mod.ts";
import { programPermissions, runDeno, type TempEnv, tempEnv } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";
import { storedResults } from "./_engine_cli.ts";

const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];
const engine = findEngine();

const stored = (env: TempEnv) =>
  storedResults(env).map((r) => ({ ...r, params: JSON.parse(String(r.params_json)) }));

Deno.test("--kv-depth on the double: one result per depth, its runs' prompts that much longer", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await runDeno([
      ...BENCH,
      ...["--backend", "rest", "--base-url", d.url, "--n-parallel", "1"],
      ...["--include-models", "qwen3-4b@q4", "--runs", "2"],
      ...["--gen-tokens", "8", "--kv-depth", "0,400"],
    ], { env: env.vars });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^qwen\/qwen3-4b@q4_k_m\s+tg8\s+/m);
    assert.match(r.stdout, /^qwen\/qwen3-4b@q4_k_m\s+tg8 @ d400\s+/m);
    const results = stored(env);
    assert.equal(results.length, 2, "one result per depth");
    assert.notEqual(results[0]!.params_hash, results[1]!.params_hash);
    assert.equal(results[0]!.params.workload.kv_depth, undefined, "depth 0: no filled context");
    assert.deepEqual(results[1]!.params.workload.kv_depth, [400]);
    assert.deepEqual(results[1]!.grid.map((c) => c.kv_depth), [400]);
    assert.deepEqual(results[1]!.runs.map((x) => x.kv_depth), [400, 400]);
    assert.deepEqual(results[0]!.runs.map((x) => x.kv_depth), [null, null]);
    const shallow = Math.max(...results[0]!.runs.map((x) => Number(x.tokens_in)));
    for (const run of results[1]!.runs) {
      assert.ok(
        Number(run.tokens_in) >= 400 + shallow - 40,
        `${run.tokens_in} tokens at depth 400`,
      );
    }
  } finally {
    await d.close();
  }
});

Deno.test("--kv-depth with --dataset is refused: the dataset sets the prompts", async () => {
  await using env = await tempEnv();
  const file = join(env.root, "d.jsonl");
  await Deno.writeTextFile(file, '{"prompt": "hello", "output_tokens": 4}\n');
  const r = await runDeno([...BENCH, "--dataset", file, "--kv-depth", "0,512"], {
    env: env.vars,
  });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--dataset sets the prompts: leave out --kv-depth/);
});

Deno.test({
  name:
    "on the real llama-server --kv-depth prefills exactly depth + prompt tokens, then decodes after them",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 1, modelsMax: 1 });
    const r = await runDeno([
      "run",
      "-A",
      "cli.ts",
      ...["--backend", "openai", "--base-url", server.url, "--max-tokens", "64"],
      ...["--n-parallel", "1", "--include-models", "^tiny-a$", "--runs", "2"],
      ...["--prompt-tokens", "64", "--gen-tokens", "16", "--kv-depth", "0,512"],
    ], { env: env.vars });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^tiny-a\s+pp64 tg16\s+[\d.]+ ± [\d.]+\s+[\d.]+ ± [\d.]+\s+64\s+16\s+2$/m,
    );
    assert.match(r.stdout, /^tiny-a\s+pp64 tg16 @ d512\s+[\d.]+ ± [\d.]+\s+[\d.]+ ± [\d.]+\s+/m);
    const results = stored(env);
    assert.equal(results.length, 2);
    assert.deepEqual(results.map((x) => x.params.workload.kv_depth), [undefined, [512]]);
    assert.deepEqual(results[0]!.runs.map((x) => x.tokens_in), [64, 64]);
    assert.deepEqual(results[1]!.runs.map((x) => x.tokens_in), [576, 576], "the server's count");
    for (const x of results.flatMap((x) => x.runs)) assert.equal(x.tokens_out, 16);
    for (const x of results[1]!.runs) assert.ok(Number(x.tokens_per_sec) > 0, "decode after depth");
  },
});
