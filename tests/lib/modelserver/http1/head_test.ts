import assert from "node:assert/strict";
import {
  DEFAULT_KEEP_ALIVE_MS,
  framingOf,
  readResponseHead,
  requestHead,
  type ResponseHead,
  reuseOf,
} from "../../../../lib/modelserver/http1/head.ts";
import { ByteReader, HttpProtocolError } from "../../../../lib/modelserver/http1/reader.ts";
import { pieces, readerOf, rest } from "./_source.ts";

const LLAMA = "HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\n" +
  "Connection: close\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n" +
  "Keep-Alive: timeout=5, max=100\r\n\r\n";

const head = (status: number, fields: Record<string, string> = {}, minor = 1): ResponseHead => ({
  minor,
  status,
  statusText: "",
  headers: new Headers(fields),
});

Deno.test("readResponseHead() parses llama-server's head whatever the size of the reads", async () => {
  for (const size of [1, 2, 3, 7, 64, LLAMA.length]) {
    const reader = readerOf(`${LLAMA}1e\r\n`, size);
    const h = await readResponseHead(reader);
    assert.ok(h, `size ${size}`);
    assert.equal(h.status, 200);
    assert.equal(h.statusText, "OK");
    assert.equal(h.minor, 1);
    assert.equal(h.headers.get("transfer-encoding"), "chunked");
    assert.equal(h.headers.get("access-control-allow-origin"), "");
    assert.equal(await rest(reader), "1e\r\n", "the body's bytes stay in the reader");
  }
});

Deno.test("readResponseHead() skips interim 1xx answers, accepts bare LF and folds obs-fold lines", async () => {
  const h = await readResponseHead(
    readerOf("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 404\nX-A: one\n  two\n\n"),
  );
  assert.ok(h);
  assert.equal(h.status, 404);
  assert.equal(h.statusText, "");
  assert.equal(h.minor, 0);
  assert.equal(h.headers.get("x-a"), "one two");
});

Deno.test("readResponseHead() is null when the connection ends before a byte, an error inside a head", async () => {
  assert.equal(await readResponseHead(new ByteReader(pieces())), null);
  await assert.rejects(
    readResponseHead(readerOf("HTTP/1.1 200 OK\r\nA: b\r\n")),
    HttpProtocolError,
  );
});

Deno.test("readResponseHead() refuses what is not an HTTP/1.x head", async () => {
  const bad = [
    "SSH-2.0-OpenSSH_9.2\r\n\r\n",
    "HTTP/2 200\r\n\r\n",
    "HTTP/1.1 20 OK\r\n\r\n",
    "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
    "HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n",
    "HTTP/1.1 200 OK\r\nX: a\0b\r\n\r\n",
    `HTTP/1.1 200 OK\r\nX: ${"a".repeat(70_000)}\r\n\r\n`,
    `HTTP/1.1 200 OK\r\n${"X-A: b\r\n".repeat(300)}\r\n`,
    "<html><body>hello</body></html>\n\n",
  ];
  for (const text of bad) {
    await assert.rejects(
      readResponseHead(readerOf(text, 512)),
      HttpProtocolError,
      text.slice(0, 30),
    );
  }
});

Deno.test("framingOf() follows RFC 9112: no body, chunked, a length, or until the close", () => {
  assert.deepEqual(framingOf(head(204, { "content-length": "5" }), "GET"), { kind: "none" });
  assert.deepEqual(framingOf(head(304), "GET"), { kind: "none" });
  assert.deepEqual(framingOf(head(200, { "content-length": "5" }), "HEAD"), { kind: "none" });
  assert.deepEqual(
    framingOf(head(200, { "transfer-encoding": "gzip, chunked", "content-length": "5" }), "GET"),
    { kind: "chunked" },
  );
  assert.deepEqual(framingOf(head(200, { "transfer-encoding": "gzip" }), "GET"), {
    kind: "close",
  });
  assert.deepEqual(framingOf(head(200, { "content-length": "12" }), "POST"), {
    kind: "length",
    length: 12,
  });
  const same = new Headers([["content-length", "7"], ["content-length", "7"]]);
  assert.deepEqual(framingOf({ ...head(200), headers: same }, "GET"), {
    kind: "length",
    length: 7,
  });
  assert.deepEqual(framingOf(head(200), "GET"), { kind: "close" });
  for (const cl of ["-1", "1e3", "0x10", "5, 6", "9999999999999999"]) {
    assert.throws(() => framingOf(head(200, { "content-length": cl }), "GET"), HttpProtocolError);
  }
});

Deno.test("reuseOf() keeps a connection only when the server allows it", () => {
  const chunked = { kind: "chunked" } as const;
  assert.equal(
    reuseOf(head(200, { "transfer-encoding": "chunked" }), chunked),
    DEFAULT_KEEP_ALIVE_MS,
  );
  assert.equal(reuseOf(head(200, { connection: "Close" }), chunked), null);
  assert.equal(reuseOf(head(200, { "keep-alive": "timeout=5, max=100" }), chunked), 4000);
  assert.equal(reuseOf(head(200, { "keep-alive": "timeout=1" }), chunked), null);
  assert.equal(reuseOf(head(200), { kind: "close" }), null);
  assert.equal(reuseOf(head(200, {}, 0), chunked), null);
  assert.equal(reuseOf(head(200, { connection: "keep-alive" }, 0), chunked), DEFAULT_KEEP_ALIVE_MS);
  assert.equal(
    reuseOf(head(200, { "transfer-encoding": "chunked", "content-length": "3" }), chunked),
    null,
  );
});

Deno.test("requestHead() writes the request line, Host and Content-Length, and refuses split heads", () => {
  const url = new URL("http://127.0.0.1:8080/v1/chat/completions?x=1");
  assert.equal(
    requestHead("POST", url, {
      "content-type": "application/json",
      Host: "evil",
      "Content-Length": "1",
    }, 12),
    "POST /v1/chat/completions?x=1 HTTP/1.1\r\nhost: 127.0.0.1:8080\r\n" +
      "content-type: application/json\r\nuser-agent: localbench\r\ncontent-length: 12\r\n\r\n",
  );
  assert.equal(
    requestHead("GET", new URL("http://[::1]:1/"), new Headers({ "User-Agent": "me" }), null),
    "GET / HTTP/1.1\r\nhost: [::1]:1\r\nuser-agent: me\r\n\r\n",
  );
  assert.throws(() => requestHead("GET", url, { "x-a": "1\r\nX-Injected: 1" }, null), TypeError);
  assert.throws(() => requestHead("GET", url, [["x a", "1"]], null), TypeError);
  assert.throws(() => requestHead("GET /x HTTP/1.1\r\n", url, {}, null), TypeError);
});
