import assert from "node:assert/strict";
import { LMStudioClient } from "@lmstudio/sdk";
import { LmStudioRestClient } from "../../lib/modelserver/mod.ts";
import { UpstreamTimeoutError } from "../../lib/error.ts";
import { statusOf } from "../../lib/http/error_handler.ts";
import { startLmStudioDouble } from "./lmstudio_server.ts";

const SERVER = new URL("./lmstudio_server.ts", import.meta.url).pathname;

async function readUntilListening(
  stdout: ReadableStream<Uint8Array>,
): Promise<{ url: string; rest: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = stdout.getReader();
  const dec = new TextDecoder();
  let text = "";
  while (!/listening on (\S+)\n/.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`The double exited before listening: ${text}`);
    text += dec.decode(value);
  }
  return { url: /listening on (\S+)\n/.exec(text)![1]!, rest: reader };
}

Deno.test("The standalone double prints its URL and serves REST v1, /v1 and the SDK on one port with a token", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-net=127.0.0.1",
      "--allow-env",
      SERVER,
      "--port",
      "0",
      "--token",
      "sk-lm-abc12345:tokentokentokentoken",
      "--token-delay-ms",
      "0",
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  try {
    const { url, rest } = await readUntilListening(child.stdout);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const denied = await fetch(`${url}/api/v1/models`);
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const client = new LmStudioRestClient({
      baseUrl: url,
      token: "sk-lm-abc12345:tokentokentokentoken",
      timeoutMs: 5000,
    });
    assert.ok((await client.listModels()).length >= 5);
    const v1 = await fetch(`${url}/v1/models`, {
      headers: { authorization: "Bearer sk-lm-abc12345:tokentokentokentoken" },
    });
    assert.equal(v1.status, 200);
    assert.ok(((await v1.json()) as { data: unknown[] }).data.length >= 4);
    const sdk = new LMStudioClient({
      baseUrl: url.replace("http", "ws"),
      clientIdentifier: "abc12345", // LM Studio splits sk-lm-ID:KEY like this
      clientPasskey: "tokentokentokentoken",
      logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
    });
    assert.equal((await sdk.system.getLMStudioVersion()).version, "0.4.1");
    await sdk[Symbol.asyncDispose]();
    child.kill("SIGTERM");
    await rest.cancel();
    const status = await child.status;
    assert.equal(status.code, 0);
  } finally {
    clearTimeout(timer);
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }
});

Deno.test("startLmStudioDouble() holds requests under neverAnswer and releases them on close", async () => {
  const d = await startLmStudioDouble({ port: 0 });
  d.faults.neverAnswer = true;
  const client = new LmStudioRestClient({ baseUrl: d.url, timeoutMs: 100 });
  const err = await client.listModels().then(() => null, (e) => e);
  assert.ok(err instanceof UpstreamTimeoutError, String(err));
  assert.equal(statusOf(err), 504);
  await d.close();
});

Deno.test("startLmStudioDouble() spaces tokens with the seeded per-token delay", async () => {
  const d = await startLmStudioDouble({ port: 0, tokenDelayMs: 5 });
  try {
    const client = new LmStudioRestClient({ baseUrl: d.url, timeoutMs: 5000 });
    const times: number[] = [];
    await client.chat({
      model: "qwen/qwen3-4b",
      messages: [{ role: "user", content: "Hi" }],
      temperature: 0,
      top_k: 40,
      top_p: 0.9,
      min_p: 0.05,
      repeat_penalty: 1.1,
      max_tokens: 5,
      onToken: (_t, ms) => times.push(ms),
    });
    assert.equal(times.length, 5);
    // 5 ms at 100 tok/s scaled to qwen3-4b's 88 tok/s, ±20 %: each gap is at least ~4.5 ms.
    assert.ok(times.at(-1)! - times[0]! >= 4 * 4.5 - 1, `gaps too short: ${times.join(", ")}`);
  } finally {
    await d.close();
  }
});
