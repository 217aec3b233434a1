import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError, UpstreamError } from "../../../lib/error.ts";
import { imageDataUrl, isModelUnloaded, LmStudioRestClient } from "../../../lib/modelserver/mod.ts";
import { createLmStudioDouble } from "../../doubles/lmstudio_rest.ts";
import { startLmStudioDouble } from "../../doubles/lmstudio_server.ts";
import { chatReq, closedPort, LOAD, rejectionOf, silentServer } from "./_fixtures.ts";

function setup(
  opts: { token?: string; clientToken?: string | null; stateful?: boolean; cache?: boolean } = {},
) {
  const double = createLmStudioDouble({ seed: 7, token: opts.token ?? null });
  const client = new LmStudioRestClient({
    baseUrl: "http://127.0.0.1:1234",
    fetch: double.fetch,
    token: opts.clientToken === undefined ? opts.token ?? null : opts.clientToken,
    stateful: opts.stateful ?? false,
    cache: opts.cache ?? false,
  });
  return { double, client };
}

Deno.test("LmStudioRestClient.listModels() maps entries to the seed's names and expands variants", async () => {
  const { double, client } = setup();
  const models = await client.listModels();
  const gemma = models.find((m) => m.base_key === "google/gemma-4-26b-a4b")!;
  assert.equal(gemma.key, "google/gemma-4-26b-a4b");
  assert.deepEqual(gemma.capabilities, { vision: true, trained_for_tool_use: true });
  assert.equal(gemma.quantization, "Q4_K_M");
  assert.equal(gemma.max_context_length, 262144);
  const qwen = models.filter((m) => m.base_key === "qwen/qwen3-4b").map((
    m,
  ) => [m.key, m.quantization]);
  assert.deepEqual(qwen, [["qwen/qwen3-4b@q4_k_m", "Q4_K_M"], ["qwen/qwen3-4b@q8_0", "Q8_0"]]);
  const emb = models.find((m) => m.type === "embedding")!;
  assert.deepEqual(emb.capabilities, { vision: false, trained_for_tool_use: false });
  assert.equal(emb.architecture, null);
  assert.equal(models.some((m) => m.key === "qwen/qwen3-0.6b"), false, "not downloaded");
  double.close();
});

Deno.test("LmStudioRestClient.load() sends the official flat body and unload() frees the instance", async () => {
  const { double, client } = setup();
  const res = await client.load("qwen/qwen3-4b@q8_0", { ...LOAD, n_batch: 256, n_gpu_layers: 0 });
  assert.equal(res.instance_id, "qwen/qwen3-4b@q8_0");
  assert.equal(res.load_time_ms, 2400);
  const sent = double.state.requests.find((r) => r.path === "/api/v1/models/load")!.body;
  assert.deepEqual(sent, {
    model: "qwen/qwen3-4b@q8_0",
    context_length: 2048,
    eval_batch_size: 256,
    flash_attention: true,
    offload_kv_cache_to_gpu: false,
    echo_load_config: true,
  });
  const listed = (await client.listModels()).find((m) => m.key === "qwen/qwen3-4b@q8_0")!;
  assert.deepEqual(listed.loaded_instances, [], "the listed selected variant is q4_k_m");
  assert.equal(double.state.instances.get(res.instance_id)?.config.context_length, 2048);
  await client.unload(res.instance_id);
  assert.equal(double.state.instances.size, 0);
  const err = await rejectionOf(client.unload(res.instance_id));
  assert.ok(err instanceof UpstreamError);
  assert.deepEqual([statusOf(err), err.upstreamStatus], [502, 404]);
  assert.match(err.message, /No loaded model instance .* \(HTTP 404\)/);
  double.close();
});

Deno.test("LmStudioRestClient.chat() maps chat.end stats to the seed's names and sends store:false", async () => {
  const { double, client } = setup();
  await client.load("mistralai/ministral-3-3b", LOAD);
  const deltas: string[] = [];
  const res = await client.chat(
    chatReq("mistralai/ministral-3-3b", undefined, { onToken: (d) => deltas.push(d) }),
  );
  assert.ok(res.stats.tokens_out > 0 && res.stats.tokens_out <= 32);
  assert.ok(res.stats.tokens_in > 0);
  assert.ok(res.stats.time_to_first_token_ms! > 0);
  assert.ok(res.stats.tokens_per_second! > 90 && res.stats.tokens_per_second! < 110);
  const expectedTotal = res.stats.time_to_first_token_ms! +
    (res.stats.tokens_out / res.stats.tokens_per_second!) * 1000;
  assert.ok(Math.abs(res.stats.total_time_ms! - expectedTotal) < 1e-6);
  assert.equal(res.stats.model_load_time_ms, null, "already loaded: no JIT load");
  assert.equal(res.text, deltas.join(""));
  assert.equal(res.client.tokens_out, res.stats.tokens_out);
  assert.notEqual(res.client.ttft_ms, null);
  assert.equal(res.response_id, null);
  const body = double.state.requests.find((r) => r.path === "/api/v1/chat")!.body as Record<
    string,
    unknown
  >;
  assert.equal(body.store, false);
  assert.equal(body.stream, true);
  assert.equal(body.max_output_tokens, 32);
  assert.equal(body.input, "Explain machine learning in 3 sentences.");
  double.close();
});

Deno.test("LmStudioRestClient.chat() gives the same text for the same seed and prompt", async () => {
  const a = setup();
  const b = setup();
  const ra = await a.client.chat(chatReq("qwen/qwen3-4b@q4_k_m"));
  const rb = await b.client.chat(chatReq("qwen/qwen3-4b@q4_k_m"));
  assert.equal(ra.text, rb.text);
  assert.deepEqual(ra.stats, rb.stats);
  a.double.close();
  b.double.close();
});

Deno.test("LmStudioRestClient.chat() reports the load time of a just-in-time load and reasoning tokens", async () => {
  const { double, client } = setup();
  const res = await client.chat(chatReq("google/gemma-4-26b-a4b"));
  assert.equal(res.stats.model_load_time_ms, 9100);
  assert.equal(res.stats.reasoning_tokens, 4);
  assert.ok(res.text.length > 0);
  double.close();
});

Deno.test("LmStudioRestClient sends the bearer token only when one is set", async () => {
  const withToken = setup({ token: "sk-lm-abc:def" });
  await withToken.client.listModels();
  assert.equal(withToken.double.state.requests[0]!.authorization, "Bearer sk-lm-abc:def");
  withToken.double.close();
  const without = setup();
  await without.client.listModels();
  assert.equal(without.double.state.requests[0]!.authorization, null);
  without.double.close();
});

Deno.test("LmStudioRestClient surfaces a 401 (as an UpstreamError) with the server's message when the token is wrong", async () => {
  const { double, client } = setup({ token: "sk-lm-abc:def", clientToken: "sk-lm-abc:nope" });
  const err = await rejectionOf(client.listModels());
  assert.ok(err instanceof UpstreamError);
  assert.deepEqual([statusOf(err), err.upstreamStatus], [502, 401]);
  assert.equal(err.message, "Invalid or missing API token (HTTP 401)");
  double.close();
});

Deno.test("LmStudioRestClient in stateful mode chains previous_response_id and reset starts over", async () => {
  const { double, client } = setup({ stateful: true });
  const first = await client.chat(chatReq("qwen/qwen3-4b"));
  assert.match(first.response_id!, /^resp_/);
  const second = await client.chat(chatReq("qwen/qwen3-4b", "And in one?"));
  assert.ok(second.stats.tokens_in > first.stats.tokens_in, "the thread grows");
  client.resetSession();
  await client.chat(chatReq("qwen/qwen3-4b", "Fresh"));
  const bodies = double.state.requests.filter((r) => r.path === "/api/v1/chat").map((r) =>
    r.body as Record<string, unknown>
  );
  assert.equal(bodies[0]!.previous_response_id, undefined);
  assert.equal(bodies[0]!.store, true);
  assert.equal(bodies[1]!.previous_response_id, first.response_id);
  assert.equal(bodies[2]!.previous_response_id, undefined);
  double.close();
});

Deno.test("LmStudioRestClient's cache answers a repeated chat, is bypassed with integrations, and clears", async () => {
  const { double, client } = setup({ cache: true });
  const chats = () => double.state.requests.filter((r) => r.path === "/api/v1/chat").length;
  const a = await client.chat(chatReq("qwen/qwen3-4b"));
  const b = await client.chat(chatReq("qwen/qwen3-4b"));
  assert.deepEqual(b, a);
  assert.equal(chats(), 1, "hit");
  await client.chat(chatReq("qwen/qwen3-4b", undefined, { temperature: 0.7 }));
  assert.equal(chats(), 2, "another temperature is another key");
  await client.chatWith({
    ...chatReq("qwen/qwen3-4b"),
    integrations: [{
      type: "ephemeral_mcp",
      server_label: "x",
      server_url: "http://127.0.0.1:9/mcp",
    }],
  });
  assert.equal(chats(), 3, "integrations bypass the cache");
  client.clearCache();
  assert.equal(client.cacheSize, 0);
  await client.chat(chatReq("qwen/qwen3-4b"));
  assert.equal(chats(), 4, "cleared");
  double.close();
});

Deno.test("LmStudioRestClient's cache is bypassed in stateful mode", async () => {
  const { double, client } = setup({ cache: true, stateful: true });
  await client.chat(chatReq("qwen/qwen3-4b"));
  await client.chat(chatReq("qwen/qwen3-4b"));
  assert.equal(double.state.requests.filter((r) => r.path === "/api/v1/chat").length, 2);
  assert.equal(client.cacheSize, 0);
  double.close();
});

Deno.test("LmStudioRestClient.download() waits for the job and reports progress", async () => {
  const { double, client } = setup();
  const seen: [string, number][] = [];
  const done = await client.download("qwen/qwen3-0.6b", {
    wait: true,
    poll_interval_ms: 5,
    onProgress: (s) => seen.push([s.state, s.progress]),
  });
  assert.equal(done.state, "completed");
  assert.equal(done.progress, 1);
  assert.equal(seen[0]![0], "downloading");
  assert.equal(seen[0]![1], 0);
  assert.ok(seen.some(([s, p]) => s === "downloading" && p > 0 && p < 1));
  const polls = double.state.requests.filter((r) =>
    r.path.startsWith("/api/v1/models/download/status/job_")
  );
  assert.equal(polls.length, 3);
  assert.ok((await client.listModels()).some((m) => m.key === "qwen/qwen3-0.6b"));
  const again = await client.download("qwen/qwen3-0.6b", { wait: true });
  assert.deepEqual([again.state, again.progress, again.job_id], ["already_downloaded", 1, null]);
  double.close();
});

Deno.test("LmStudioRestClient.download() gives up at its timeout", async () => {
  const { double, client } = setup();
  const err = await rejectionOf(
    client.download("qwen/qwen3-0.6b", { wait: true, poll_interval_ms: 20, timeout_ms: 30 }),
  );
  assert.ok(err instanceof AppError);
  assert.equal(statusOf(err), 504);
  double.close();
});

Deno.test("LmStudioRestClient.chat() makes 'Model unloaded' recognisable", async () => {
  const { double, client } = setup();
  await client.load("qwen/qwen3-4b", LOAD);
  double.faults.modelUnloadedOnce.add("qwen/qwen3-4b");
  const err = await rejectionOf(client.chat(chatReq("qwen/qwen3-4b")));
  assert.ok(isModelUnloaded(err));
  assert.equal((err as AppError).code, "model_unloaded");
  assert.equal(double.state.instances.size, 0, "the double really unloaded it");
  const retry = await client.chat(chatReq("qwen/qwen3-4b"));
  assert.ok(retry.stats.tokens_out > 0, "a retry succeeds (once)");
  double.close();
});

Deno.test("LmStudioRestClient.chat() fails on a mid-stream error event even though chat.end follows", async () => {
  const { double, client } = setup();
  double.faults.midStreamError = "Context length exceeded";
  const err = await rejectionOf(client.chat(chatReq("qwen/qwen3-4b")));
  assert.ok(err instanceof AppError);
  assert.equal(err.message, "Context length exceeded");
  assert.equal(isModelUnloaded(err), false);
  double.close();
});

Deno.test("LmStudioRestClient surfaces HTTP errors with the server's message and status (as upstreamStatus)", async () => {
  const { double, client } = setup();
  const err = await rejectionOf(client.load("nobody/nothing", LOAD));
  assert.ok(err instanceof UpstreamError);
  assert.deepEqual([statusOf(err), err.upstreamStatus], [502, 404]);
  assert.equal(err.message, 'Model "nobody/nothing" not found (HTTP 404)');
  double.faults.failChat.add("qwen/qwen3-4b");
  const chatErr = await rejectionOf(client.chat(chatReq("qwen/qwen3-4b")));
  assert.ok(chatErr instanceof AppError);
  assert.equal(statusOf(chatErr), 502);
  assert.match(chatErr.message, /simulated failure \(HTTP 500\)$/);
  double.close();
});

Deno.test("LmStudioRestClient.chatWith() sends images as input items for vision models", async () => {
  const { double, client } = setup();
  const image = imageDataUrl(new Uint8Array([137, 80, 78, 71]));
  await client.chatWith({ ...chatReq("google/gemma-4-26b-a4b", "What is this?"), images: [image] });
  const body = double.state.requests.find((r) => r.path === "/api/v1/chat")!.body as Record<
    string,
    unknown
  >;
  assert.deepEqual(body.input, [{ type: "message", content: "What is this?" }, {
    type: "image",
    data_url: image,
  }]);
  double.close();
});

Deno.test("LmStudioRestClient.chat() reports a dropped stream clearly instead of hanging", async () => {
  const d = await startLmStudioDouble({ port: 0 });
  try {
    d.faults.dropStreamAfterTokens = 3;
    const client = new LmStudioRestClient({ baseUrl: d.url, timeoutMs: 5000 });
    const tokens: string[] = [];
    const err = await rejectionOf(
      client.chat(chatReq("qwen/qwen3-4b", undefined, { onToken: (t) => tokens.push(t) })),
    );
    assert.ok(err instanceof AppError);
    assert.equal(err.code, "stream_dropped");
    assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${d.port}`));
    assert.equal(tokens.length, 3);
  } finally {
    await d.close();
  }
});

Deno.test("LmStudioRestClient times out when the server never answers", async () => {
  const s = silentServer();
  try {
    const client = new LmStudioRestClient({
      baseUrl: `http://127.0.0.1:${s.port}`,
      timeoutMs: 150,
    });
    const err = await rejectionOf(client.chat(chatReq("qwen/qwen3-4b")));
    assert.ok(err instanceof AppError);
    assert.equal(statusOf(err), 504);
    assert.equal(err.code, "timeout");
    assert.match(err.message, /sent nothing for 0\.2 s when asked to chat with 'qwen\/qwen3-4b'/);
  } finally {
    await s.close();
  }
});

Deno.test("LmStudioRestClient names host and port when the connection is refused", async () => {
  const port = closedPort();
  const client = new LmStudioRestClient({ baseUrl: `http://127.0.0.1:${port}` });
  const err = await rejectionOf(client.listModels());
  assert.ok(err instanceof AppError);
  assert.equal(statusOf(err), 503);
  assert.equal(
    err.message,
    `Cannot reach the model server at 127.0.0.1:${port}: connection refused`,
  );
  assert.equal(err.code, "unreachable");
});

Deno.test("LmStudioRestClient.chat() fails the warmup of a model marked failWarmup, then works", async () => {
  const { double, client } = setup();
  double.faults.failWarmup.add("qwen/qwen3-4b");
  const { instance_id } = await client.load("qwen/qwen3-4b", LOAD);
  const err = await rejectionOf(client.chat(chatReq(instance_id)));
  assert.ok(err instanceof AppError);
  assert.match(err.message, /simulated failure/);
  assert.ok((await client.chat(chatReq(instance_id))).stats.tokens_out > 0);
  double.close();
});

Deno.test("LmStudioRestClient times out against the in-process double under neverAnswer", async () => {
  const double = createLmStudioDouble();
  double.faults.neverAnswer = true;
  const client = new LmStudioRestClient({
    baseUrl: "http://127.0.0.1:1234",
    fetch: double.fetch,
    timeoutMs: 50,
  });
  const err = await rejectionOf(client.listModels());
  assert.ok(err instanceof AppError);
  assert.equal(statusOf(err), 504);
  double.close();
});
