/**
 * `--shared-prefix-tokens`: every measured request starts with the same tokens, the prompt cache
 * is left on for them, and the result says the TTFT of the request that found the prefix cold
 * and of those after it: through `cli.ts` against the LM Studio double (OpenAI-compatible) and
 * the real llama-server (ignored when the engine is not built).
 */
import assert from "node:assert/strict";
import { findEngine, startLlamaServer } from "../../lib/engine/mod.ts";
import { programPermissions, runDeno, type TempEnv, tempEnv } from "../_helpers.ts";
import { startLmStudioDouble } from "../doubles/lmstudio_server.ts";
import { storedResults } from "./_engine_cli.ts";

const BENCH = ["run", ...programPermissions("bench"), "cli.ts"];
const engine = findEngine();

const stored = (env: TempEnv) =>
  storedResults(env).map((r) => ({
    params: JSON.parse(String(r.params_json)),
    workload: JSON.parse(String(r.workload_json ?? "null")),
    runs: r.runs,
  }));

Deno.test("--shared-prefix-tokens sends the same prefix first in every measured request, cache on", async () => {
  await using env = await tempEnv();
  const d = await startLmStudioDouble({ port: 0 });
  try {
    const r = await runDeno([
      ...BENCH,
      ...["--backend", "openai", "--base-url", `${d.url}/v1`, "--n-parallel", "1"],
      ...["--include-models", "qwen3-4b", "--runs", "3", "--shared-prefix-tokens", "40"],
    ], { env: env.vars });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Shared prefix\s+tokens\s+TTFT cold ms\s+warm p50\s+warm mean\s+warm n\s+cached cold\s+cached warm$/m,
    );
    assert.match(r.stdout, /^qwen\/qwen3-4b\s+40\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+2\s+-\s+-$/m);
    const chats = d.state.requests.filter((x) => x.path === "/v1/chat/completions")
      .map((x) => x.body as { messages: { content: string }[]; cache_prompt?: boolean });
    const measured = chats.slice(-3);
    const texts = measured.map((c) => c.messages.at(-1)!.content);
    const prefix = texts[0]!.slice(0, texts[0]!.indexOf("\n\n") + 2);
    assert.ok(prefix.length > 100, "a prefix of 40 tokens");
    for (const t of texts) assert.ok(t.startsWith(prefix), "the same prefix in every request");
    assert.equal(new Set(texts).size, 3, "a nonce after the prefix: nothing else is shared");
    for (const c of measured) assert.equal(c.cache_prompt, undefined, "the prompt cache is on");
    const warmup = chats[0]!;
    assert.ok(!warmup.messages.at(-1)!.content.startsWith(prefix), "the warm-up has no prefix");
    assert.equal(warmup.cache_prompt, false);
    const [result] = stored(env);
    assert.equal(result!.params.workload.shared_prefix_tokens, 40, "part of the identity");
    assert.deepEqual(result!.runs.map((x) => x.prefix_cold), [1, 0, 0]);
    const effect = result!.workload.shared_prefix;
    assert.equal(effect.tokens, 40);
    assert.equal(effect.tokens_counted, 40, "counted by the server, less the chat template");
    assert.equal(effect.warm_requests, 2);
    assert.equal(effect.cold_ttft_ms, result!.runs[0]!.ttft_ms);
  } finally {
    await d.close();
  }
});

Deno.test({
  name: "on the real llama-server the shared prefix is prefilled once: the later requests reuse it",
  ignore: !engine,
  sanitizeResources: false,
  async fn() {
    await using env = await tempEnv();
    await using server = await startLlamaServer({ ctxSize: 2048, parallel: 1, modelsMax: 1 });
    const r = await runDeno([
      "run",
      "-A",
      "cli.ts",
      ...["--backend", "openai", "--base-url", server.url, "--n-parallel", "1"],
      ...["--include-models", "^tiny-a$", "--runs", "4", "--prompt-tokens", "64"],
      ...["--gen-tokens", "8", "--shared-prefix-tokens", "1000"],
    ], { env: env.vars });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^tiny-a\s+1000\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+3\s+\d+\s+\d+$/m);
    const [result] = stored(env);
    const effect = result!.workload.shared_prefix;
    assert.equal(effect.tokens_counted, 1000, "the server's tokenizer counted the prefix");
    for (const run of result!.runs) {
      assert.ok(Math.abs(Number(run.tokens_in) - 1064) <= 2, `prefix + prompt: ${run.tokens_in}`);
    }
    // The server's own count: the first request found nothing of the prefix in its cache (the
    // warm-up had none), each later one took the prefix from it.
    const cached = result!.runs.map((x) => Number(x.server_cached_tokens));
    assert.ok(cached[0]! < 50, `cold: ${cached}`);
    for (const c of cached.slice(1)) assert.ok(c >= 1000, `warm: the prefix was reused: ${cached}`);
    assert.deepEqual(result!.runs.map((x) => x.prefix_cold), [1, 0, 0, 0]);
    assert.ok(effect.warm_cached_tokens_mean >= 1000);
  },
});
