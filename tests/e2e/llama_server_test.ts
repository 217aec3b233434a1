/**
 * End to end against the real engine: llama.cpp's llama-server in router mode over the generated
 * tiny models. Ignored (not passed) when the engine is not built; `deno task engine:setup` builds it.
 */

import assert from "node:assert/strict";
import {
  explainMissingEngine,
  findEngine,
  listRouterModels,
  loadRouterModel,
  startLlamaServer,
  unloadRouterModel,
} from "../../lib/engine/mod.ts";
import { descendantsOf, isAlive, readProcTable } from "../../lib/engine/processes.ts";

const engine = findEngine();
const why = engine ? "" : ` (ignored: ${explainMissingEngine()})`;

/** Reads an OpenAI-style SSE stream into its JSON chunks; checks it ends with `[DONE]`. */
async function readSse(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6).trim());
  assert.equal(data.at(-1), "[DONE]", "stream ends with [DONE]");
  return data.slice(0, -1).map((d) => JSON.parse(d));
}

Deno.test({
  name:
    `llama-server router lists, loads, streams a chat with timings, unloads and stops cleanly${why}`,
  ignore: !engine,
  async fn(t) {
    const { server: binary, modelsDir, manifest } = engine!;
    const server = await startLlamaServer({ server: binary, modelsDir, startupTimeoutMs: 30_000 });
    const seenChildren = new Set<number>();
    const model = manifest.models[0]!.name;
    try {
      await t.step("GET /models lists every generated model, unloaded", async () => {
        const models = await listRouterModels(server.url);
        assert.deepEqual(models.map((m) => m.id).sort(), manifest.models.map((m) => m.name).sort());
        assert.ok(models.every((m) => m.status.value === "unloaded"));
      });

      await t.step("POST /models/load starts one child server for the model", async () => {
        const loaded = await loadRouterModel(server.url, model, { timeoutMs: 30_000 });
        assert.equal(loaded.status.value, "loaded");
        const kids = descendantsOf(readProcTable(), server.process.pid);
        assert.ok(kids.length >= 1, "router spawned a model instance");
        kids.forEach((pid) => seenChildren.add(pid));
      });

      await t.step(
        "a streamed chat completion yields tokens, usage and llama.cpp timings",
        async () => {
          const started = performance.now();
          const res = await fetch(`${server.url}/v1/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              model,
              messages: [{ role: "user", content: "Write one sentence about benchmarks." }],
              max_tokens: 24,
              stream: true,
              stream_options: { include_usage: true },
              cache_prompt: false,
              seed: 7,
            }),
          });
          assert.equal(res.status, 200);
          assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
          const chunks = await readSse(res);
          const deltas = chunks.flatMap((
            c,
          ) => (c.choices as Array<{ delta?: { content?: string | null } }>))
            .map((c) => c.delta?.content).filter((s): s is string =>
              typeof s === "string" && s.length > 0
            );
          assert.ok(deltas.length > 0, "content tokens arrived");
          const last = chunks.at(-1) as {
            choices: unknown[];
            usage?: { completion_tokens: number; prompt_tokens: number };
            timings?: {
              prompt_n: number;
              predicted_n: number;
              predicted_per_second: number;
              cache_n: number;
            };
          };
          assert.deepEqual(last.choices, [], "usage chunk has no choices");
          assert.ok(last.usage && last.usage.completion_tokens > 0 && last.usage.prompt_tokens > 0);
          assert.ok(last.timings, "llama.cpp timings present");
          assert.equal(last.timings.predicted_n, last.usage.completion_tokens);
          assert.ok(last.timings.predicted_per_second > 0);
          assert.equal(last.timings.cache_n, 0, "cache_prompt:false reuses no prompt cache");
          assert.ok(performance.now() - started < 30_000);
        },
      );

      await t.step("an unknown model gets an OpenAI-style 400 error", async () => {
        const res = await fetch(`${server.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            model: "no-such-model",
            messages: [{ role: "user", content: "hi" }],
          }),
        });
        const body = await res.json();
        assert.equal(res.status, 400);
        assert.match(body.error.message, /not found/);
      });

      await t.step("POST /models/unload ends the model's child server", async () => {
        const unloaded = await unloadRouterModel(server.url, model, { timeoutMs: 30_000 });
        assert.equal(unloaded.status.value, "unloaded");
        for (let i = 0; i < 100 && [...seenChildren].some(isAlive); i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        assert.ok([...seenChildren].every((pid) => !isAlive(pid)), "child exited");
      });

      await t.step("a model loaded again is cleaned up by stop()", async () => {
        await loadRouterModel(server.url, model, { timeoutMs: 30_000 });
        descendantsOf(readProcTable(), server.process.pid).forEach((pid) => seenChildren.add(pid));
      });
    } finally {
      await server.stop();
    }
    assert.equal(isAlive(server.process.pid), false, "router exited");
    assert.ok([...seenChildren].every((pid) => !isAlive(pid)), "no orphan llama-server left");
  },
});
