import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError, UpstreamError } from "../../../lib/error.ts";
import { OpenAiClient } from "../../../lib/modelserver/openai.ts";
import { chunk, rawServer, send } from "./http1/_raw_server.ts";

const HEAD = "HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nConnection: close\r\n" +
  "Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

const event = (data: unknown) => chunk(`data: ${JSON.stringify(data)}\n\n`);
const token = (text: string) => event({ choices: [{ index: 0, delta: { content: text } }] });

const chat = (client: OpenAiClient) =>
  client.chat({
    model: "m",
    messages: [{ role: "user", content: "hi" }],
    temperature: 0.1,
    top_p: 0.9,
    top_k: 40,
    min_p: 0.05,
    repeat_penalty: 1.1,
    max_tokens: 8,
  });

/** Rejects with an AppError of `code`; returns it. */
async function failsWith(promise: Promise<unknown>, code: string): Promise<AppError> {
  const err = await promise.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  assert.equal(err.code, code, err.message);
  return err;
}

Deno.test("a chat streams through the HTTP/1.1 client from llama-server's bytes, closing chunks and all", async () => {
  await using server = rawServer(async (conn) => {
    await send(
      conn,
      HEAD + event({ choices: [{ index: 0, delta: { role: "assistant", content: null } }] }),
    );
    for (const t of ["Hel", "lo", "!"]) await send(conn, token(t));
    await send(
      conn,
      event({ choices: [{ index: 0, delta: {}, finish_reason: "length" }] }) +
        event({
          choices: [],
          usage: { prompt_tokens: 5, completion_tokens: 3 },
          timings: { prompt_ms: 2, predicted_ms: 3, predicted_per_second: 1000 },
        }) + chunk("data: [DONE]\n\n") + "0\r\n\r\n",
    );
    return "close";
  });
  const client = new OpenAiClient({ baseUrl: `${server.url}/v1`, timeoutMs: 5000 });
  try {
    const result = await chat(client);
    assert.equal(result.text, "Hello!");
    assert.equal(result.stats.tokens_out, 3);
    assert.equal(result.stats.stop_reason, "length");
    assert.equal(result.stats.tokens_per_second, 1000);
    assert.match(server.requests[0]!, /^POST \/v1\/chat\/completions HTTP\/1\.1\r\n/);
    assert.match(server.requests[0]!, /\r\ncontent-type: application\/json\r\n/);
  } finally {
    await client.close();
  }
});

Deno.test("the first-byte time of --request-timeout applies through the HTTP/1.1 client", async () => {
  const release = Promise.withResolvers<void>();
  await using server = rawServer(async () => {
    await release.promise; // reads the request, never answers
    return "close";
  });
  const client = new OpenAiClient({ baseUrl: server.url, firstByteMs: 150, timeoutMs: 5000 });
  try {
    const err = await failsWith(chat(client), "timeout");
    assert.match(err.message, /sent nothing for 0\.2 s when asked to chat with 'm'/);
  } finally {
    release.resolve();
    await client.close();
  }
});

Deno.test("the idle time of --request-timeout applies between the bytes of a stream", async () => {
  const release = Promise.withResolvers<void>();
  await using server = rawServer(async (conn) => {
    await send(conn, HEAD + token("a"));
    await release.promise; // then silence
    return "close";
  });
  const client = new OpenAiClient({ baseUrl: server.url, firstByteMs: 5000, timeoutMs: 200 });
  try {
    await failsWith(chat(client), "timeout");
  } finally {
    release.resolve();
    await client.close();
  }
});

Deno.test("a stream cut by the server, or an answer that is not HTTP, is a clear error naming the server", async () => {
  const answers = [
    HEAD + token("a"), // then the connection closes inside the chunked body
    "SSH-2.0-OpenSSH_9.2\r\n\r\n",
    "",
  ];
  await using server = rawServer(async (conn, _req, i) => {
    await send(conn, answers[i]!);
    return "close";
  });
  const client = new OpenAiClient({ baseUrl: server.url, timeoutMs: 5000 });
  try {
    const cut = await failsWith(chat(client), "stream_dropped");
    assert.match(cut.message, new RegExp(`127\\.0\\.0\\.1:${server.port}`));
    for (let i = 0; i < 2; i++) {
      const err = await failsWith(chat(client), "upstream");
      assert.equal(statusOf(err), 502);
      assert.match(err.message, new RegExp(`HTTP|answer.*127\\.0\\.0\\.1:${server.port}`));
    }
  } finally {
    await client.close();
  }
});

Deno.test("a refused connection is 'unreachable', and an HTTP error is a 502 keeping the server's status and message", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
  const nobody = new OpenAiClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5000 });
  await failsWith(chat(nobody), "unreachable");
  await nobody.close();

  await using server = rawServer(async (conn) => {
    const body = JSON.stringify({ error: { code: 400, message: "context too long" } });
    await send(conn, `HTTP/1.1 400 Bad Request\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    return "keep";
  });
  const client = new OpenAiClient({ baseUrl: server.url, timeoutMs: 5000 });
  try {
    const err = await chat(client).then(() => null, (e) => e);
    assert.ok(err instanceof UpstreamError);
    assert.equal(statusOf(err), 502);
    assert.equal(err.upstreamStatus, 400);
    assert.match(err.message, /context too long \(HTTP 400\)/);
  } finally {
    await client.close();
  }
});
