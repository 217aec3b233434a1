import assert from "node:assert/strict";
import { statusOf } from "../../../lib/http/error_handler.ts";
import { AppError, UpstreamError, UsageError } from "../../../lib/error.ts";
import { HttpTransport } from "../../../lib/modelserver/http.ts";
import type { ChatRequest } from "../../../lib/modelserver/backend.ts";
import { OpenAiClient } from "../../../lib/modelserver/openai.ts";
import { makeCerts } from "../../_certs.ts";
import { REPO_ROOT, waitFor } from "../../_helpers.ts";
import { chunk, rawServer, send } from "./_raw_server.ts";

const HEAD = "HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nConnection: close\r\n" +
  "Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

const event = (data: unknown) => chunk(`data: ${JSON.stringify(data)}\n\n`);
const token = (text: string) => event({ choices: [{ index: 0, delta: { content: text } }] });
const DONE = chunk("data: [DONE]\n\n");

const chat = (client: OpenAiClient, extra: Partial<ChatRequest> = {}) =>
  client.chat({
    model: "m",
    messages: [{ role: "user", content: "hi" }],
    temperature: 0.1,
    top_p: 0.9,
    top_k: 40,
    min_p: 0.05,
    repeat_penalty: 1.1,
    max_tokens: 8,
    ...extra,
  });

/** Rejects with an AppError of `code`; returns it. */
async function failsWith(promise: Promise<unknown>, code: string): Promise<AppError> {
  const err = await promise.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  assert.equal(err.code, code, err.message);
  return err;
}

Deno.test("a chat streams from llama-server's bytes, closing chunks and all, with the JSON body and the bearer token", async () => {
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
        }) + DONE + "0\r\n\r\n",
    );
    return "close";
  });
  const client = new OpenAiClient({ baseUrl: `${server.url}/v1`, timeoutMs: 5000, token: "t" });
  const result = await chat(client);
  assert.equal(result.text, "Hello!");
  assert.equal(result.stats.tokens_out, 3);
  assert.equal(result.stats.stop_reason, "length");
  assert.equal(result.stats.tokens_per_second, 1000);
  const request = server.requests[0]!;
  assert.match(request, /^POST \/v1\/chat\/completions HTTP\/1\.1\r\n/);
  assert.match(request, /\r\ncontent-type: application\/json\r\n/i);
  assert.match(request, /\r\nauthorization: Bearer t\r\n/i);
  const body = JSON.parse(request.slice(request.indexOf("\r\n\r\n") + 4));
  assert.deepEqual([body.model, body.stream, body.max_tokens], ["m", true, 8]);
});

Deno.test("each token reaches the reader as the server writes it, before the next one is sent", async () => {
  const seen = Promise.withResolvers<void>();
  await using server = rawServer(async (conn) => {
    await send(conn, HEAD + token("one"));
    await seen.promise; // the second token only once the client has seen the first
    await send(conn, token("two") + DONE + "0\r\n\r\n");
    return "close";
  });
  const client = new OpenAiClient({ baseUrl: server.url, timeoutMs: 5000 });
  const result = await chat(client, { onToken: () => seen.resolve() });
  assert.equal(result.text, "onetwo");
});

Deno.test("a chat that stops at [DONE] cancels the rest of the body, closing its connection", async () => {
  let closedByClient = false;
  await using server = rawServer(async (conn) => {
    await send(conn, HEAD + token("a") + DONE); // the chunked body never ends
    closedByClient = (await conn.read(new Uint8Array(64))) === null;
    return "close";
  });
  const client = new OpenAiClient({ baseUrl: server.url, timeoutMs: 5000 });
  assert.equal((await chat(client)).text, "a");
  await waitFor(() => closedByClient, "the client to close the connection");
});

Deno.test("the first-byte time of --request-timeout applies", async () => {
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
  }
});

Deno.test("a stop rejects with its reason before the answer, inside the stream, and before sending", async () => {
  const hold = Promise.withResolvers<void>();
  await using server = rawServer(async (conn, req) => {
    if (req.startsWith("POST")) await send(conn, HEAD + token("first"));
    await hold.promise;
    return "close";
  });
  try {
    const early = new AbortController();
    const quiet = new HttpTransport({ baseUrl: server.url, timeoutMs: 5000 });
    setTimeout(() => early.abort(new Error("stop before the head")), 30);
    await assert.rejects(
      quiet.json("GET", "/v1/models", undefined, "list", { signal: early.signal }),
      /before the head/,
    );

    const client = new OpenAiClient({ baseUrl: server.url, timeoutMs: 5000 });
    const mid = new AbortController();
    const tokens: string[] = [];
    const onToken = (delta: string) => {
      tokens.push(delta);
      mid.abort(new Error("stop in the body"));
    };
    await assert.rejects(chat(client, { signal: mid.signal, onToken }), /in the body/);
    assert.deepEqual(tokens, ["first"]);

    const already = new AbortController();
    already.abort(new Error("gone already"));
    await assert.rejects(chat(client, { signal: already.signal }), /gone already/);
    assert.equal(server.requests.length, 2, "a stopped call sends nothing");
  } finally {
    hold.resolve();
  }
});

Deno.test("a stream cut by the server, or an answer that is not HTTP, is a clear error naming the server", async () => {
  const answers = [
    HEAD + token("a"), // then the connection closes inside the chunked body
    HEAD + token("a") + "zz\r\n", // a chunk size that is not one
    "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", // a JSON body cut short
    "SSH-2.0-OpenSSH_9.2\r\n\r\n",
    "", // last: fetch sends the request again once after a close without an answer
  ];
  await using server = rawServer(async (conn, _req, i) => {
    await send(conn, answers[Math.min(i, answers.length - 1)]!);
    return "close";
  });
  const client = new OpenAiClient({ baseUrl: server.url, timeoutMs: 5000 });
  const where = new RegExp(`127\\.0\\.0\\.1:${server.port}`);
  for (let i = 0; i < 2; i++) {
    assert.match((await failsWith(chat(client), "stream_dropped")).message, where);
  }
  const http = new HttpTransport({ baseUrl: server.url, timeoutMs: 5000 });
  const cut = await failsWith(http.json("GET", "/v1/models", undefined, "list models"), "upstream");
  assert.match(cut.message, where);
  for (const said of [/invalid HTTP version/, /closed before message completed/]) {
    const err = await failsWith(chat(client), "upstream");
    assert.equal(statusOf(err), 502);
    assert.match(err.message, said);
    assert.match(err.message, where);
  }
});

Deno.test("a JSON answer is read whatever its framing, however slowly its bytes come", async () => {
  const answers = [
    'HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n{"a":1}\n',
    'HTTP/1.0 200 OK\r\n\r\n{"until":"the close"}',
    "HTTP/1.1 204 No Content\r\n\r\n",
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnope",
  ];
  await using server = rawServer(async (conn, _req, i) => {
    for (const byte of new TextEncoder().encode(answers[i]!)) {
      await send(conn, new Uint8Array([byte]));
      if (i === 0) await new Promise((r) => setTimeout(r, 1));
    }
    return "close";
  });
  const http = new HttpTransport({ baseUrl: server.url, timeoutMs: 5000 });
  const get = () => http.json("GET", "/x", undefined, "read x");
  assert.deepEqual(await get(), { a: 1 });
  assert.deepEqual(await get(), { until: "the close" });
  assert.equal(await get(), null);
  const missing = await get().then(() => null, (e) => e);
  assert.ok(missing instanceof UpstreamError);
  assert.deepEqual([missing.upstreamStatus, missing.message], [404, "nope (HTTP 404)"]);
});

Deno.test("a refused connection is 'unreachable', and an HTTP error is a 502 keeping the server's status and message", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
  const nobody = new OpenAiClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5000 });
  await failsWith(chat(nobody), "unreachable");

  await using server = rawServer(async (conn) => {
    const body = JSON.stringify({ error: { code: 400, message: "context too long" } });
    await send(conn, `HTTP/1.1 400 Bad Request\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    return "keep";
  });
  const client = new OpenAiClient({ baseUrl: server.url, timeoutMs: 5000 });
  const err = await chat(client).then(() => null, (e) => e);
  assert.ok(err instanceof UpstreamError);
  assert.equal(statusOf(err), 502);
  assert.equal(err.upstreamStatus, 400);
  assert.match(err.message, /context too long \(HTTP 400\)/);
});

Deno.test("a base URL that is not http(s) sends nothing; a token that would split the request head is refused unechoed", async () => {
  await using server = rawServer(() => Promise.resolve("close"));
  const ftp = new HttpTransport({ baseUrl: `ftp://127.0.0.1:${server.port}`, timeoutMs: 5000 });
  await failsWith(ftp.json("GET", "/", undefined, "list"), "upstream");
  assert.throws(
    () => new HttpTransport({ baseUrl: server.url, token: "secret\r\nx-b: 2" }),
    (err: Error) => err instanceof UsageError && !err.message.includes("secret"),
  );
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(server.requests.length, 0);
});

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n"ok"';

const list = (http: HttpTransport) => http.json("GET", "/v1/models", undefined, "list models");

/** Runs a script with `deno run` and the given flags; returns its output. */
async function runScript(flags: string[], code: string, env: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "localbench-reach-" });
  try {
    await Deno.writeTextFile(`${dir}/script.ts`, code);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-prompt", ...flags, `${dir}/script.ts`],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: decode(out.stdout).trim(), stderr: decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Whether this system lets a process see its own /etc/hosts (a user and mount namespace). */
const ownHosts = await new Deno.Command("unshare", { args: ["-rm", "true"], stderr: "null" })
  .output().then((o) => o.success, () => false);

Deno.test("localhost reaches a server on 127.0.0.1, and is 'unreachable' when nothing listens", async () => {
  await using server = rawServer(async (conn) => {
    await send(conn, OK);
    return "close";
  });
  assert.equal(await list(new HttpTransport({ baseUrl: `http://localhost:${server.port}` })), "ok");
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
  const err = await list(new HttpTransport({ baseUrl: `http://localhost:${port}` })).catch((e) =>
    e
  );
  assert.ok(err instanceof AppError);
  assert.equal(err.code, "unreachable");
  assert.match(err.message, new RegExp(`Cannot reach the model server at localhost:${port}`));
});

Deno.test({
  name: "localhost resolving to ::1 first still reaches a server on 127.0.0.1 only",
  ignore: !ownHosts,
  fn: async () => {
    await using server = rawServer(async (conn) => {
      await send(conn, OK);
      return "close";
    });
    const dir = await Deno.makeTempDir({ prefix: "localbench-hosts-" });
    try {
      await Deno.writeTextFile(`${dir}/hosts`, "::1 localhost\n127.0.0.1 localhost\n");
      const script = `import { HttpTransport } from "${REPO_ROOT}/lib/modelserver/http.ts";
        const http = new HttpTransport({ baseUrl: "http://localhost:${server.port}" });
        console.log(await http.json("GET", "/", undefined, "read"));`;
      const out = await new Deno.Command("unshare", {
        args: ["-rm", "sh", "-c", 'mount --bind "$0" /etc/hosts && exec "$1" eval "$2"'].concat(
          [`${dir}/hosts`, Deno.execPath(), script],
        ),
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      assert.equal(new TextDecoder().decode(out.stdout).trim(), "ok");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("an HTTPS base URL works, its certificate checked against the URL's host", async () => {
  const dir = await Deno.makeTempDir({ prefix: "localbench-tls-" });
  const certs = await makeCerts(dir);
  const listener = Deno.listenTls({
    hostname: "127.0.0.1",
    port: 0,
    cert: await Deno.readTextFile(certs.certFile),
    key: await Deno.readTextFile(certs.keyFile),
  });
  const serving = (async () => {
    for await (const conn of listener) {
      try {
        if ((await conn.read(new Uint8Array(4096))) !== null) await send(conn, OK);
      } catch {
        // the client refused our certificate: the handshake fails on this side too
      } finally {
        conn.close();
      }
    }
  })();
  const port = listener.addr.port;
  const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(certs.caFile)] });
  const trusted: typeof fetch = (input, init) => fetch(input, { ...init, client });
  try {
    for (const host of ["127.0.0.1", "localhost"]) {
      const http = new HttpTransport({ baseUrl: `https://${host}:${port}`, fetch: trusted });
      assert.equal(await list(http), "ok");
    }
    const err = await list(new HttpTransport({ baseUrl: `https://127.0.0.1:${port}` }))
      .catch((e) => e);
    assert.ok(err instanceof AppError);
    assert.match(err.message, /certificate|UnknownIssuer/i);
  } finally {
    client.close();
    listener.close();
    await serving.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process allowed to reach the model server by name only (--allow-net=localhost:PORT) reaches it", async () => {
  await using server = rawServer(async (conn) => {
    await send(conn, OK);
    return "close";
  });
  const out = await runScript(
    ["--allow-read", `--allow-net=localhost:${server.port}`],
    `import { HttpTransport } from "${REPO_ROOT}/lib/modelserver/http.ts";
    const http = new HttpTransport({ baseUrl: "http://localhost:${server.port}" });
    console.log(await http.json("GET", "/", undefined, "read"));`,
  );
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "ok");
});

Deno.test("a model server behind HTTP_PROXY is reached through the proxy", async () => {
  await using proxy = rawServer(async (conn) => {
    const body = JSON.stringify({ data: [{ id: "through-the-proxy" }] });
    await send(conn, `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    return "close";
  });
  const out = await runScript(
    ["-A"],
    `import { createBackend } from "${REPO_ROOT}/lib/modelserver/factory.ts";
    const b = createBackend({ backend: "openai", base_url: "http://models.invalid:1234", timeout_ms: 5000 });
    const list = await b.listModels();
    console.log(JSON.stringify(list.map((m) => m.key)));
    await b.close();`,
    { HTTP_PROXY: proxy.url, NO_PROXY: "", no_proxy: "" },
  );
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), ["through-the-proxy"]);
  assert.match(proxy.requests[0]!, /^GET http:\/\/models\.invalid:1234\/v1\/models HTTP\/1\.1\r\n/);
});
