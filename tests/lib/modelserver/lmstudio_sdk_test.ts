import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError } from "../../../lib/error.ts";
import { createLogger } from "../../../lib/log.ts";
import { isModelUnloaded, LmStudioSdkClient } from "../../../lib/modelserver/mod.ts";
import { type RunningLmStudioDouble, startLmStudioDouble } from "../../doubles/lmstudio_server.ts";
import { chatReq, closedPort, LOAD, rejectionOf, silentServer } from "./_fixtures.ts";
import { staticGraph } from "../../../tools/import_graph.ts";
import { REPO_ROOT } from "../../_helpers.ts";

const quiet = createLogger("test", { sink: () => {} });

async function withSdk(
  fn: (client: LmStudioSdkClient, d: RunningLmStudioDouble) => Promise<void>,
  opts: { token?: string; clientToken?: string | null; timeoutMs?: number } = {},
) {
  const d = await startLmStudioDouble({ port: 0, seed: 3, token: opts.token ?? null });
  const client = new LmStudioSdkClient({
    port: d.port,
    token: opts.clientToken === undefined ? opts.token ?? null : opts.clientToken,
    timeoutMs: opts.timeoutMs ?? 5000,
    logger: quiet,
  });
  try {
    await fn(client, d);
  } finally {
    await client.close();
    await d.close();
  }
}

Deno.test("LmStudioSdkClient.listModels() maps SDK model info with loaded instances", () =>
  withSdk(async (client) => {
    const { instance_id } = await client.load("google/gemma-4-26b-a4b", LOAD);
    const models = await client.listModels();
    assert.equal(models.length, 6, "one entry per variant");
    const gemma = models.find((m) => m.key === "google/gemma-4-26b-a4b@q4_k_m")!;
    assert.deepEqual(gemma.capabilities, { vision: true, trained_for_tool_use: true });
    assert.deepEqual(gemma.loaded_instances, [instance_id]);
    assert.equal(gemma.quantization, "Q4_K_M");
    assert.equal(models.find((m) => m.type === "embedding")!.capabilities.vision, false);
  }));

Deno.test("LmStudioSdkClient.listModels() lists every variant with its own size, which SDK 1.5.0 alone cannot", () =>
  withSdk(async (client, d) => {
    const models = await client.listModels();
    const qwen = models.filter((m) => m.base_key === "qwen/qwen3-4b")
      .map((m) => [m.key, m.quantization, m.size_bytes]);
    assert.deepEqual(qwen, [
      ["qwen/qwen3-4b@q4_k_m", "Q4_K_M", 2497280960],
      ["qwen/qwen3-4b@q8_0", "Q8_0", 4280405696],
    ]);
    const calls = d.state.requests.filter((r) => r.path.startsWith("system/listDownloaded"))
      .map((r) => r.path);
    assert.deepEqual(calls, ["system/listDownloadedModels", "system/listDownloadedModelVariants"]);
    // The SDK's own list has one entry per model: its schemas drop `variants`.
    const { LMStudioClient } = await import("@lmstudio/sdk");
    const sdk = new LMStudioClient({ baseUrl: `ws://127.0.0.1:${d.port}`, logger: quiet });
    try {
      const listed = await sdk.system.listDownloadedModels("llm");
      assert.equal(listed.filter((m) => m.modelKey === "qwen/qwen3-4b").length, 1);
      assert.equal("variants" in listed[0]!, false);
    } finally {
      await sdk[Symbol.asyncDispose]();
    }
  }));

Deno.test("LmStudioSdkClient.load() sends the load config fields of SDK 1.5.0", () =>
  withSdk(async (client, d) => {
    const res = await client.load("qwen/qwen3-4b@q8_0", {
      ...LOAD,
      context_length: 256,
      n_batch: 64,
      n_gpu_layers: 0,
    });
    assert.equal(res.instance_id, "qwen/qwen3-4b@q8_0");
    assert.ok(res.load_time_ms! >= 0);
    const frame = d.state.requests.find((r) => r.path === "llm/loadModel")!.body as {
      creationParameter: {
        modelKey: string;
        loadConfigStack: { layers: { config: { fields: { key: string; value: unknown }[] } }[] };
      };
    };
    assert.equal(frame.creationParameter.modelKey, "qwen/qwen3-4b@q8_0");
    const fields = new Map(
      frame.creationParameter.loadConfigStack.layers.flatMap((l) => l.config.fields).map((
        f,
      ) => [f.key, f.value]),
    );
    assert.equal(fields.get("llm.load.contextLength"), 256);
    assert.equal(fields.get("llm.load.llama.evalBatchSize"), 64);
    assert.equal(fields.get("llm.load.llama.acceleration.offloadRatio"), "off");
    assert.equal(fields.get("llm.load.llama.flashAttention"), true);
    assert.equal(fields.get("llm.load.llama.tryMmap"), true);
    assert.equal(d.state.instances.get(res.instance_id)!.config.context_length, 256);
    await client.unload(res.instance_id);
    assert.equal(d.state.instances.size, 0);
  }));

Deno.test("LmStudioSdkClient.chat() reports the server's stats in the seed's names", () =>
  withSdk(async (client, d) => {
    const { instance_id } = await client.load("qwen/qwen3-4b", LOAD);
    const deltas: string[] = [];
    const res = await client.chat(
      chatReq(instance_id, undefined, { max_tokens: 8, onToken: (t) => deltas.push(t) }),
    );
    assert.equal(res.stats.tokens_out, 8);
    assert.equal(res.stats.stop_reason, "maxPredictedTokensReached");
    assert.ok(res.stats.tokens_in > 0);
    assert.ok(res.stats.time_to_first_token_ms! > 0);
    assert.ok(res.stats.total_time_ms! > res.stats.time_to_first_token_ms!);
    assert.ok(res.stats.tokens_per_second! > 80);
    assert.equal(res.text, deltas.join(""));
    assert.equal(res.client.tokens_out, 8);
    assert.equal(res.response_id, null);
    const predict = d.state.requests.find((r) => r.path === "llm/predict")!.body as {
      creationParameter: {
        predictionConfigStack: {
          layers: { config: { fields: { key: string; value: unknown }[] } }[];
        };
      };
    };
    const fields = new Map(
      predict.creationParameter.predictionConfigStack.layers.flatMap((l) => l.config.fields).map((
        f,
      ) => [f.key, f.value]),
    );
    assert.deepEqual(fields.get("llm.prediction.maxPredictedTokens"), { checked: true, value: 8 });
    assert.equal(fields.get("llm.prediction.temperature"), 0.1);
  }));

Deno.test("LmStudioSdkClient.version() answers the LM Studio version over the system namespace", () =>
  withSdk(async (client) => {
    assert.equal(await client.version(), "0.4.1");
  }));

Deno.test("LmStudioSdkClient authenticates with an sk-lm token split into identifier and passkey", async () => {
  await withSdk(async (client) => {
    assert.equal(await client.version(), "0.4.1");
  }, { token: "sk-lm-abcd1234:secretsecretsecret1234" });
  await withSdk(async (client) => {
    const err = await rejectionOf(client.listModels());
    assert.ok(err instanceof AppError);
    assert.equal(err.code, "auth");
    assert.match(err.message, /refused the API token: pass a valid one .* with --api-token/);
  }, {
    token: "sk-lm-abcd1234:secretsecretsecret1234",
    clientToken: "sk-lm-abcd1234:wrong",
    timeoutMs: 2000,
  });
});

Deno.test("LmStudioSdkClient.chat() makes 'Model unloaded' recognisable", () =>
  withSdk(async (client, d) => {
    const { instance_id } = await client.load("qwen/qwen3-4b", LOAD);
    d.faults.modelUnloadedOnce.add("qwen/qwen3-4b");
    const err = await rejectionOf(client.chat(chatReq(instance_id)));
    assert.ok(isModelUnloaded(err), String(err));
  }));

Deno.test("LmStudioSdkClient.chat() fails clearly when the socket drops mid-stream", () =>
  withSdk(async (client, d) => {
    const { instance_id } = await client.load("qwen/qwen3-4b", LOAD);
    d.faults.dropStreamAfterTokens = 2;
    const err = await rejectionOf(client.chat(chatReq(instance_id)));
    assert.ok(err instanceof AppError);
    assert.equal(statusOf(err), 502);
  }));

Deno.test("LmStudioSdkClient times out when the server never answers", async () => {
  const s = silentServer();
  const client = new LmStudioSdkClient({ port: s.port, timeoutMs: 200, logger: quiet });
  try {
    const err = await rejectionOf(client.listModels());
    assert.ok(err instanceof AppError);
    assert.equal(statusOf(err), 504);
    assert.match(
      err.message,
      new RegExp(
        `127\\.0\\.0\\.1:${s.port} sent nothing for 0\\.2 s when asked to list models: .* --request-timeout`,
      ),
    );
  } finally {
    await client.close();
    await s.close();
  }
});

Deno.test("LmStudioSdkClient names host and port when the connection is refused", async () => {
  const port = closedPort();
  const client = new LmStudioSdkClient({ port, timeoutMs: 5000, logger: quiet });
  try {
    const err = await rejectionOf(client.listModels());
    assert.ok(err instanceof AppError);
    assert.equal(
      err.message,
      `Cannot reach the model server at 127.0.0.1:${port}: connection refused`,
    );
  } finally {
    await client.close();
  }
});

Deno.test("the model-server clients and the dashboard load the LM Studio SDK only when the SDK backend is used", async () => {
  for (const entry of ["lib/modelserver/mod.ts", "webapp.ts", "lib/bench/mod.ts"]) {
    const graph = await staticGraph(REPO_ROOT, entry);
    assert.ok(!graph.npm.includes("@lmstudio/sdk"), `${entry} loads @lmstudio/sdk at start`);
    assert.ok(graph.files.includes("lib/modelserver/lmstudio_sdk.ts"), entry);
  }
});
