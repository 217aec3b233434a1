import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError, UpstreamError } from "../../../lib/error.ts";
import { isModelUnloaded, OpenAiClient } from "../../../lib/modelserver/mod.ts";
import { createLlamaCppDouble } from "../../doubles/_llamacpp_double.ts";
import { createLmStudioDouble } from "../../doubles/lmstudio_rest.ts";
import { startLmStudioDouble } from "../../doubles/lmstudio_server.ts";
import { chatReq, closedPort, LOAD, rejectionOf, silentServer } from "./_fixtures.ts";

function lmStudio(token: string | null = null, clientToken = token) {
  const double = createLmStudioDouble({ seed: 5, token });
  const client = new OpenAiClient({
    baseUrl: "http://127.0.0.1:1234/v1",
    fetch: double.fetch,
    token: clientToken,
  });
  return { double, client };
}

Deno.test("OpenAiClient.listModels() reads LM Studio's /v1/models", async () => {
  const { double, client } = lmStudio();
  const models = await client.listModels();
  assert.ok(models.some((m) => m.key === "qwen/qwen3-4b" && m.type === "llm"));
  assert.equal(models.some((m) => m.type === "embedding"), false);
  double.close();
});

Deno.test("OpenAiClient.chat() streams with include_usage and measures time to first token", async () => {
  const { double, client } = lmStudio();
  const deltas: string[] = [];
  const res = await client.chat(
    chatReq("qwen/qwen3-4b", undefined, { max_tokens: 10, onToken: (t) => deltas.push(t) }),
  );
  assert.equal(res.stats.tokens_out, 10);
  assert.ok(res.stats.tokens_in > 0);
  assert.equal(res.stats.stop_reason, "length");
  assert.equal(res.stats.time_to_first_token_ms, null, "LM Studio's /v1 reports no timings");
  assert.equal(res.text, deltas.join(""));
  assert.notEqual(res.client.ttft_ms, null);
  assert.equal(res.client.tokens_out, 10);
  const body = double.state.requests.find((r) => r.path === "/v1/chat/completions")!.body as Record<
    string,
    unknown
  >;
  assert.deepEqual(body.stream_options, { include_usage: true });
  assert.equal(body.cache_prompt, undefined);
  double.close();
});

Deno.test("OpenAiClient sends the bearer token only when one is set and surfaces a 401", async () => {
  const ok = lmStudio("tok-1");
  await ok.client.listModels();
  assert.equal(ok.double.state.requests[0]!.authorization, "Bearer tok-1");
  ok.double.close();
  const none = lmStudio();
  await none.client.listModels();
  assert.equal(none.double.state.requests[0]!.authorization, null);
  none.double.close();
  const bad = lmStudio("tok-1", null);
  const err = await rejectionOf(bad.client.listModels());
  assert.ok(err instanceof UpstreamError && err.upstreamStatus === 401);
  bad.double.close();
});

Deno.test("OpenAiClient.load() falls back to on-demand loading on LM Studio's /v1", async () => {
  const { double, client } = lmStudio();
  assert.deepEqual(await client.load("qwen/qwen3-4b", LOAD), {
    instance_id: "qwen/qwen3-4b",
    load_time_ms: null,
  });
  await client.unload("qwen/qwen3-4b");
  assert.equal(double.state.requests.filter((r) => r.path === "/models/unload").length, 0);
  double.close();
});

Deno.test("OpenAiClient surfaces the server's error message and status (as upstreamStatus)", async () => {
  const { double, client } = lmStudio();
  const err = await rejectionOf(client.chat(chatReq("nobody/nothing")));
  assert.ok(err instanceof UpstreamError);
  assert.deepEqual([statusOf(err), err.upstreamStatus], [502, 404]);
  assert.equal(err.message, 'Model "nobody/nothing" not found (HTTP 404)');
  double.faults.modelUnloadedOnce.add("qwen/qwen3-4b");
  assert.ok(isModelUnloaded(await rejectionOf(client.chat(chatReq("qwen/qwen3-4b")))));
  double.close();
});

Deno.test("OpenAiClient.chat() uses llama.cpp timings and the router's load and unload", async () => {
  const double = createLlamaCppDouble({ seed: 2 });
  const client = new OpenAiClient({ baseUrl: "http://127.0.0.1:8080", fetch: double.fetch });
  assert.equal(await client.version(), "b6500-de3ff81");
  const loaded = await client.load("qwen/qwen3-4b", LOAD);
  assert.equal(loaded.instance_id, "qwen/qwen3-4b");
  assert.notEqual(loaded.load_time_ms, null);
  assert.deepEqual(
    (await client.listModels()).find((m) => m.key === "qwen/qwen3-4b")!.loaded_instances,
    ["qwen/qwen3-4b"],
  );
  const res = await client.chat(chatReq("qwen/qwen3-4b", undefined, { noCache: true }));
  assert.ok(res.stats.time_to_first_token_ms! > 0);
  assert.equal(res.stats.prompt_ms, res.stats.time_to_first_token_ms);
  assert.ok(res.stats.predicted_ms! > 0);
  assert.ok(res.stats.tokens_per_second! > 80);
  assert.equal(res.stats.total_time_ms, res.stats.prompt_ms! + res.stats.predicted_ms!);
  const body = double.state.requests.find((r) => r.path === "/v1/chat/completions")!.body as Record<
    string,
    unknown
  >;
  assert.equal(body.cache_prompt, false);
  await client.unload("qwen/qwen3-4b");
  assert.equal(double.state.instances.size, 0);
  const err = await rejectionOf(client.load("nope", LOAD));
  assert.ok(err instanceof AppError);
  assert.equal(err.message, "model 'nope' not found (HTTP 400)");
  double.close();
});

Deno.test("OpenAiClient.load() reloads a model the llama.cpp router already runs", async () => {
  const double = createLlamaCppDouble({ seed: 2 });
  const client = new OpenAiClient({ baseUrl: "http://127.0.0.1:8080", fetch: double.fetch });
  double.state.load("qwen/qwen3-4b"); // loaded by someone else before the benchmark
  const loaded = await client.load("qwen/qwen3-4b", LOAD);
  assert.equal(loaded.instance_id, "qwen/qwen3-4b");
  assert.notEqual(loaded.load_time_ms, null);
  assert.deepEqual(
    double.state.requests.filter((r) => r.path.startsWith("/models/")).map((r) => r.path),
    ["/models/load", "/models/unload", "/models/load"],
  );
  assert.equal(double.state.instancesOf("qwen/qwen3-4b").length, 1);
  const res = await client.chat(chatReq("qwen/qwen3-4b"));
  assert.ok(res.stats.tokens_out! > 0);
  double.close();
});

Deno.test("OpenAiClient.version() is null when the server has no /props", async () => {
  const { double, client } = lmStudio();
  assert.equal(await client.version(), null);
  double.close();
});

Deno.test("OpenAiClient.chat() reports a dropped stream clearly instead of hanging", async () => {
  const d = await startLmStudioDouble({ port: 0 });
  try {
    d.faults.dropStreamAfterTokens = 2;
    const client = new OpenAiClient({ baseUrl: d.url, timeoutMs: 5000 });
    const err = await rejectionOf(client.chat(chatReq("qwen/qwen3-4b")));
    assert.ok(err instanceof AppError);
    assert.equal(err.code, "stream_dropped");
  } finally {
    await d.close();
  }
});

Deno.test("OpenAiClient times out when the server never answers and names a refused port", async () => {
  const s = silentServer();
  try {
    const client = new OpenAiClient({ baseUrl: `http://127.0.0.1:${s.port}`, timeoutMs: 100 });
    const err = await rejectionOf(client.listModels());
    assert.ok(err instanceof AppError && statusOf(err) === 504);
  } finally {
    await s.close();
  }
  const port = closedPort();
  const err = await rejectionOf(
    new OpenAiClient({ baseUrl: `http://127.0.0.1:${port}` }).listModels(),
  );
  assert.ok(err instanceof AppError && statusOf(err) === 503);
  assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${port}: connection refused`));
});
