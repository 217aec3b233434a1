import assert from "node:assert/strict";
import {
  type Connector,
  Http1Client,
  HttpProtocolError,
  tcpConnector,
} from "../../../../lib/modelserver/http1/mod.ts";
import { waitFor } from "../../../_helpers.ts";
import { chunk, rawServer, send } from "./_raw_server.ts";

const OK_CHUNKED = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n" +
  "Transfer-Encoding: chunked\r\n\r\n";
const CLOSE_CHUNKED = "HTTP/1.1 200 OK\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A promise and its resolver. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => resolve = r);
  return { promise, resolve };
}

Deno.test("Http1Client sends one well-formed request and hands out each chunk as the server writes it", async () => {
  const next = signal();
  await using server = rawServer(async (conn) => {
    await send(conn, OK_CHUNKED + chunk("data: one\n\n"));
    await next.promise; // the second chunk only once the client has seen the first
    await send(conn, chunk("data: two\n\n") + "0\r\n\r\n");
    return "keep";
  });
  const client = new Http1Client();
  try {
    const res = await client.request(`${server.url}/v1/chat/completions?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: '{"model":"m","é":1}',
    });
    assert.equal(res.status, 200);
    assert.equal(res.ok, true);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const seen: string[] = [];
    for await (const piece of res.body) {
      seen.push(text(piece));
      if (seen.length === 1) next.resolve();
    }
    assert.deepEqual(seen, ["data: one\n\n", "data: two\n\n"]);
    assert.equal(
      server.requests[0],
      `POST /v1/chat/completions?x=1 HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\n` +
        "content-type: application/json\r\nauthorization: Bearer t\r\nuser-agent: localbench\r\n" +
        'content-length: 20\r\n\r\n{"model":"m","é":1}',
    );
  } finally {
    client.close();
  }
});

Deno.test("Http1Client keeps a connection the server allows and opens a new one after Connection: close", async () => {
  await using server = rawServer(async (conn, _req, i) => {
    const close = i >= 2;
    await send(conn, (close ? CLOSE_CHUNKED : OK_CHUNKED) + chunk(`answer ${i}`) + "0\r\n\r\n");
    return close ? "close" : "keep";
  });
  const client = new Http1Client();
  try {
    for (let i = 0; i < 5; i++) {
      assert.equal(await (await client.request(server.url)).text(), `answer ${i}`);
    }
    // Requests 0, 1 and 2 share one connection; 2 said close, so 3 and 4 had one each.
    assert.equal(server.accepted, 3);
  } finally {
    client.close();
  }
});

Deno.test("Http1Client sends a request again when the kept connection was closed meanwhile", async () => {
  await using server = rawServer(async (conn, _req, i) => {
    await send(conn, `HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n${i}`);
    return "close"; // without saying so: the client keeps a connection that is gone
  });
  const client = new Http1Client();
  try {
    assert.equal(await (await client.request(server.url)).text(), "0");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(
      await (await client.request(server.url, { method: "POST", body: "x" })).text(),
      "1",
    );
    assert.equal(server.accepted, 2);
    assert.equal(server.requests.length, 2, "the lost request never reached a server");
  } finally {
    client.close();
  }
});

Deno.test("Http1Client drains a body left unread after the last event and keeps its connection", async () => {
  await using server = rawServer(async (conn, _req, i) => {
    await send(conn, OK_CHUNKED + chunk(`data: ${i}\n\ndata: [DONE]\n\n`));
    await new Promise((r) => setTimeout(r, 20));
    await send(conn, "0\r\n\r\n");
    return "keep";
  });
  const client = new Http1Client();
  try {
    for (let i = 0; i < 3; i++) {
      const res = await client.request(server.url);
      for await (const _ of res.body) break; // the reader stops at [DONE]
      await new Promise((r) => setTimeout(r, 60));
    }
    assert.equal(server.accepted, 1);
  } finally {
    client.close();
  }
});

Deno.test("Http1Client reads a closing answer to its end after the reader stops, then closes", async () => {
  const answer = [CLOSE_CHUNKED + chunk("data: [DONE]\n\n"), "0\r\n\r\n"];
  await using server = rawServer(async (conn) => {
    await send(conn, answer[0]!);
    await new Promise((r) => setTimeout(r, 5));
    await send(conn, answer[1]!); // arrives while the reader is still busy with [DONE]
    return "close";
  });
  // Bytes read when the connection was closed: all of them, or the close would find unread
  // bytes and reset the connection instead of ending it.
  let readAtClose = -1;
  const base = tcpConnector();
  const connect: Connector = async (endpoint) => {
    const conn = await base(endpoint);
    let read = 0;
    return {
      write: (p) => conn.write(p),
      read: async (p) => {
        const n = await conn.read(p);
        read += n ?? 0;
        return n;
      },
      close: () => {
        readAtClose = read;
        conn.close();
      },
    };
  };
  const client = new Http1Client({ connect });
  try {
    const res = await client.request(server.url);
    for await (const _ of res.body) {
      await new Promise((r) => setTimeout(r, 50));
      break; // stops at [DONE], as the chat readers do, with the last chunk unread
    }
    await waitFor(() => readAtClose >= 0);
    assert.equal(readAtClose, new TextEncoder().encode(answer.join("")).length);
  } finally {
    client.close();
  }
});

Deno.test("Http1Client closes a body left unread that does not end in time", async () => {
  let closedByClient = false;
  await using server = rawServer(async (conn, _req, i) => {
    await send(conn, OK_CHUNKED + chunk("data: 1\n\n"));
    if (i === 0) closedByClient = (await conn.read(new Uint8Array(64))) === null; // no body end
    return "close";
  });
  const client = new Http1Client({ drainMs: 30 });
  try {
    const res = await client.request(server.url);
    for await (const _ of res.body) break;
    await waitFor(() => closedByClient); // closed after 30 ms without the body's end
    const second = await client.request(server.url);
    assert.equal(second.status, 200);
    await second.cancel();
    assert.equal(server.accepted, 2);
  } finally {
    client.close();
  }
});

Deno.test("Http1Client rejects with the signal's reason and closes the connection on abort", async () => {
  const hold = signal();
  await using server = rawServer(async (conn, req) => {
    if (req.includes("/mid")) await send(conn, OK_CHUNKED + chunk("first"));
    await hold.promise;
    return "close";
  });
  const client = new Http1Client();
  try {
    const early = new AbortController();
    setTimeout(() => early.abort(new Error("stop before the head")), 30);
    await assert.rejects(client.request(server.url, { signal: early.signal }), /before the head/);

    const mid = new AbortController();
    const res = await client.request(`${server.url}/mid`, { signal: mid.signal });
    const pieces: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const piece of res.body) {
          pieces.push(text(piece));
          mid.abort(new Error("stop in the body"));
        }
      })(),
      /in the body/,
    );
    assert.deepEqual(pieces, ["first"]);

    const already = new AbortController();
    already.abort(new Error("gone already"));
    await assert.rejects(client.request(server.url, { signal: already.signal }), /gone already/);
    assert.equal(server.accepted, 2, "an aborted signal opens no connection");
  } finally {
    hold.resolve();
    client.close();
  }
});

Deno.test("Http1Client fails with HttpProtocolError on answers that are not HTTP/1.1 or are cut", async () => {
  const answers = [
    "SSH-2.0-OpenSSH_9.2\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
    OK_CHUNKED + chunk("data: 1\n\n") + "zz\r\n",
    OK_CHUNKED + chunk("data: 1\n\n"),
    "",
  ];
  await using server = rawServer(async (conn, _req, i) => {
    await send(conn, answers[i]!);
    return "close";
  });
  const client = new Http1Client();
  try {
    for (let i = 0; i < answers.length; i++) {
      await assert.rejects(
        (async () => await (await client.request(server.url)).text())(),
        HttpProtocolError,
        `answer ${i}`,
      );
    }
  } finally {
    client.close();
  }
});

Deno.test("Http1Client reads a slow head and body byte by byte, and bodies of every framing", async () => {
  const answers = [
    "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    "HTTP/1.0 200 OK\r\n\r\nuntil the close",
    "HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n",
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnope",
  ];
  await using server = rawServer(async (conn, _req, i) => {
    for (const byte of new TextEncoder().encode(answers[i]!)) {
      await send(conn, new Uint8Array([byte]));
      if (i === 0) await new Promise((r) => setTimeout(r, 1));
    }
    return "close";
  });
  const client = new Http1Client();
  try {
    assert.equal(await (await client.request(server.url)).text(), "hello");
    assert.equal(await (await client.request(server.url)).text(), "until the close");
    const empty = await client.request(server.url);
    assert.equal(empty.status, 204);
    assert.equal(await empty.text(), "");
    const missing = await client.request(server.url);
    assert.deepEqual([missing.status, missing.ok, await missing.text()], [404, false, "nope"]);
  } finally {
    client.close();
  }
});

Deno.test("Http1Client refuses URLs it cannot serve and heads that could be split, opening nothing", async () => {
  await using server = rawServer(() => Promise.resolve("close"));
  const client = new Http1Client();
  try {
    await assert.rejects(client.request("ftp://127.0.0.1/"), TypeError);
    await assert.rejects(
      client.request(server.url, { headers: { "x-a": "1\r\nx-b: 2" } }),
      TypeError,
    );
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(server.requests.length, 0);
  } finally {
    client.close();
  }
});

Deno.test("Http1Client.close() ends the kept connections; a cancelled body closes its own", async () => {
  await using server = rawServer(async (conn, req) => {
    if (req.includes("/big")) await send(conn, OK_CHUNKED + chunk("x".repeat(1000)));
    else await send(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    return "keep";
  });
  const client = new Http1Client();
  await (await client.request(server.url)).text();
  const big = await client.request(`${server.url}/big`); // on the kept connection
  await big.cancel();
  assert.equal(big.bodyUsed, true);
  await waitFor(() => server.ended === 1);
  await (await client.request(server.url)).text(); // a new connection, kept
  assert.equal(server.accepted, 2);
  client.close();
  await waitFor(() => server.ended === 2);
});

Deno.test("Http1Client cannot read a body twice", async () => {
  await using server = rawServer(async (conn) => {
    await send(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    return "close";
  });
  const client = new Http1Client();
  try {
    const res = await client.request(server.url);
    assert.equal(await res.text(), "ok");
    await assert.rejects(res.text(), TypeError);
  } finally {
    client.close();
  }
});
