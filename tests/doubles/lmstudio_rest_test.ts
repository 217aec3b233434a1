import assert from "node:assert/strict";
import { createLlamaCppDouble } from "./_llamacpp_double.ts";
import {
  CHAT_STATS,
  DOWNLOAD_STATES,
  ERROR_EVENT,
  LLAMACPP_NOT_FOUND,
  LOAD_CONFIG,
  LOAD_RESPONSE,
  MODEL_ENTRY,
  OPENAI_NOT_FOUND,
} from "./_lmstudio_official.ts";
import { createLmStudioDouble } from "./lmstudio_rest.ts";

/** The same keys with the same JSON types, recursively (arrays compared by their first item). */
function assertSameShape(actual: unknown, official: unknown, path = "$"): void {
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  assert.equal(kind(actual), kind(official), `type of ${path}`);
  if (kind(official) === "object") {
    const a = actual as Record<string, unknown>;
    const o = official as Record<string, unknown>;
    assert.deepEqual(Object.keys(a).sort(), Object.keys(o).sort(), `keys of ${path}`);
    for (const k of Object.keys(o)) assertSameShape(a[k], o[k], `${path}.${k}`);
  } else if (
    kind(official) === "array" && (official as unknown[]).length > 0 &&
    (actual as unknown[]).length > 0
  ) {
    assertSameShape((actual as unknown[])[0], (official as unknown[])[0], `${path}[0]`);
  }
}

async function post(d: ReturnType<typeof createLmStudioDouble>, path: string, body: unknown) {
  return await d.fetch(`http://double${path}`, { method: "POST", body: JSON.stringify(body) });
}

async function events(res: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const text = await res.text();
  return text.trim().split("\n\n").map((block) => {
    const [ev, data] = block.split("\n");
    return { event: ev!.slice("event: ".length), data: JSON.parse(data!.slice("data: ".length)) };
  });
}

Deno.test("The REST double's model entry matches the official list.md example", async () => {
  const d = createLmStudioDouble();
  const load = await post(d, "/api/v1/models/load", {
    model: "google/gemma-4-26b-a4b",
    context_length: 4096,
  });
  await load.body?.cancel();
  const res = await d.fetch("http://double/api/v1/models");
  const entry = ((await res.json()) as { models: Record<string, unknown>[] }).models
    .find((m) => m.key === "google/gemma-4-26b-a4b")!;
  const { loaded_instances: ours, ...rest } = entry;
  const { loaded_instances: theirs, ...official } = MODEL_ENTRY;
  assert.deepEqual(rest, official);
  const inst = (ours as { id: string; config: Record<string, unknown> }[])[0]!;
  assert.equal(inst.id, theirs[0]!.id);
  const { num_experts: _moe, ...officialConfig } = theirs[0]!.config;
  assertSameShape(
    inst.config,
    officialConfig,
    "loaded_instances[0].config (num_experts: MoE only)",
  );
  d.close();
});

Deno.test("The REST double's embedding entry omits architecture and capabilities as list.md says", async () => {
  const d = createLmStudioDouble();
  const res = await d.fetch("http://double/api/v1/models");
  const emb = ((await res.json()) as { models: Record<string, unknown>[] }).models.find((m) =>
    m.type === "embedding"
  )!;
  assert.equal("architecture" in emb, false);
  assert.equal("capabilities" in emb, false);
  d.close();
});

Deno.test("The REST double's load response matches the official load.md example", async () => {
  const d = createLmStudioDouble();
  const res = await post(d, "/api/v1/models/load", {
    model: "qwen/qwen3-4b",
    context_length: 16384,
    eval_batch_size: 512,
    flash_attention: true,
    offload_kv_cache_to_gpu: true,
    echo_load_config: true,
  });
  const body = await res.json() as Record<string, unknown>;
  const { load_config, ...plain } = body;
  assertSameShape(plain, LOAD_RESPONSE);
  const { num_experts: _moe, ...officialConfig } = LOAD_CONFIG;
  assert.deepEqual(load_config, officialConfig);
  const noEcho = await (await post(d, "/api/v1/models/load", { model: "qwen/qwen3-4b" })).json();
  assert.equal("load_config" in noEcho, false, "load_config only with echo_load_config");
  d.close();
});

Deno.test("The REST double's chat.end stats carry the official names, with model_load_time_seconds only on a JIT load", async () => {
  const d = createLmStudioDouble();
  const jit = await events(
    await post(d, "/api/v1/chat", {
      model: "google/gemma-4-26b-a4b",
      input: "Hi",
      stream: true,
      store: false,
    }),
  );
  const jitStats = (jit.at(-1)!.data.result as { stats: Record<string, unknown> }).stats;
  assertSameShape(jitStats, { ...CHAT_STATS, model_load_time_seconds: 9.1 });
  const warm = await events(
    await post(d, "/api/v1/chat", {
      model: "google/gemma-4-26b-a4b",
      input: "Hi",
      stream: true,
      store: false,
    }),
  );
  assertSameShape((warm.at(-1)!.data.result as { stats: unknown }).stats, CHAT_STATS);
  d.close();
});

Deno.test("The REST double streams events in the official order", async () => {
  const d = createLmStudioDouble();
  const first = await events(
    await post(d, "/api/v1/chat", {
      model: "google/gemma-4-26b-a4b",
      input: "Hi",
      stream: true,
      max_output_tokens: 8,
    }),
  );
  for (const e of first) assert.equal(e.data.type, e.event, "data repeats the event name");
  const names = first.map((e) => e.event);
  assert.equal(names[0], "chat.start");
  assert.equal(names.at(-1), "chat.end");
  assert.deepEqual(names.slice(1, 4), [
    "model_load.start",
    "model_load.progress",
    "model_load.end",
  ]);
  const firstDelta = names.findIndex((n) => n.endsWith(".delta"));
  assert.ok(names.indexOf("prompt_processing.end") < firstDelta);
  assert.ok(names.lastIndexOf("reasoning.end") < names.indexOf("message.start"));
  assert.match(
    String((first.at(-1)!.data.result as { response_id: string }).response_id),
    /^resp_/,
    "store defaults to true",
  );
  const second = await events(
    await post(d, "/api/v1/chat", {
      model: "google/gemma-4-26b-a4b",
      input: "Hi",
      stream: true,
      store: false,
    }),
  );
  assert.equal(
    second.some((e) => e.event.startsWith("model_load.")),
    false,
    "no model_load.* when loaded",
  );
  assert.equal(
    "response_id" in (second.at(-1)!.data.result as object),
    false,
    "no response_id with store:false",
  );
  d.close();
});

Deno.test("The REST double's errors use the official error body", async () => {
  const d = createLmStudioDouble();
  const res = await post(d, "/api/v1/chat", { input: "Hi" });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), { error: ERROR_EVENT.error });
  d.faults.midStreamError = "Something broke";
  const evs = await events(
    await post(d, "/api/v1/chat", { model: "qwen/qwen3-4b", input: "Hi", stream: true }),
  );
  const err = evs.find((e) => e.event === "error")!;
  assertSameShape(err.data, { type: "error", error: { type: "unknown", message: "" } });
  assert.equal(evs.at(-1)!.event, "chat.end", "chat.end still follows an error");
  d.close();
});

Deno.test("The REST double's download answers follow download.md", async () => {
  const d = createLmStudioDouble();
  const already = await (await post(d, "/api/v1/models/download", { model: "qwen/qwen3-4b" }))
    .json();
  assert.deepEqual(already, { status: "already_downloaded" });
  const job = await (await post(d, "/api/v1/models/download", { model: "qwen/qwen3-0.6b" }))
    .json() as Record<string, unknown>;
  assert.ok(DOWNLOAD_STATES.includes(String(job.status)));
  assert.equal(typeof job.job_id, "string");
  for (
    const path of [
      `/status/${job.job_id}`,
      `/status?job_id=${job.job_id}`,
      "/status?model=qwen/qwen3-0.6b",
      "/status",
    ]
  ) {
    const res = await d.fetch(`http://double/api/v1/models/download${path}`);
    assert.equal(res.status, 200, path);
    assert.equal((await res.json()).job_id, job.job_id, path);
  }
  const missing = await d.fetch("http://double/api/v1/models/download/status/job_nope");
  assert.equal((await missing.json()).error.type, "job_not_found");
  d.close();
});

Deno.test("The /v1 and llama.cpp doubles use the error bodies seen from the real servers", async () => {
  const d = createLmStudioDouble();
  const res = await post(d, "/v1/chat/completions", {
    model: "x",
    messages: [{ role: "user", content: "Hi" }],
  });
  assert.equal(res.status, 404);
  assertSameShape(await res.json(), OPENAI_NOT_FOUND);
  d.close();
  const l = createLlamaCppDouble();
  const lres = await l.fetch("http://double/models/load", {
    method: "POST",
    body: JSON.stringify({ model: "nope" }),
  });
  assert.deepEqual(await lres.json(), LLAMACPP_NOT_FOUND);
  l.close();
});

Deno.test("The REST double answers unknown routes with 200, as LM Studio does", async () => {
  const d = createLmStudioDouble();
  const res = await d.fetch("http://double/nothing");
  assert.equal(res.status, 200);
  assert.match((await res.json()).error, /Unexpected endpoint or method/);
  d.close();
});
