import assert from "node:assert/strict";
import { bodyOf } from "../../../../lib/modelserver/http1/body.ts";
import { ByteReader, HttpProtocolError } from "../../../../lib/modelserver/http1/reader.ts";
import { collect, cut, pieces, readerOf, rest } from "./_source.ts";

const chunk = (text: string, ext = "") =>
  `${new TextEncoder().encode(text).length.toString(16)}${ext}\r\n${text}\r\n`;

const SSE = ['data: {"a":1}\n\n', 'data: {"b":"°é€"}\n\n', "data: [DONE]\n\n"];
const CHUNKED = `${SSE.map((t, i) => chunk(t, i === 1 ? ";name=value" : "")).join("")}0\r\n` +
  "X-Trailer: t\r\n\r\n";

Deno.test("a chunked body decodes whatever the size of the reads, extensions and trailers included", async () => {
  for (const size of [1, 2, 3, 5, 17, 64, CHUNKED.length]) {
    const reader = readerOf(`${CHUNKED}HTTP/1.1 next`, size);
    const [text] = await collect(bodyOf(reader, { kind: "chunked" }));
    assert.equal(text, SSE.join(""), `size ${size}`);
    assert.equal(await rest(reader), "HTTP/1.1 next", "the next answer's bytes are left alone");
  }
});

Deno.test("a chunked body hands out one piece per network read, however many chunks it held", async () => {
  const source = pieces(chunk("a") + chunk("b") + chunk("c"), chunk("d") + "0\r\n\r\n");
  const [text, n] = await collect(bodyOf(new ByteReader(source), { kind: "chunked" }));
  assert.equal(text, "abcd");
  assert.equal(n, 2);
});

Deno.test("a chunked body that breaks the rules is a protocol error", async () => {
  const bad = [
    "zz\r\nab\r\n0\r\n\r\n", // not a hex size
    "\r\n", // an empty size line
    "2\r\nabc\r\n0\r\n\r\n", // more data than the size
    "5\r\nab", // the connection closes inside a chunk
    "2\r\nab\r\n", // ... before the last chunk
    "0\r\nX: y\r\n", // ... inside the trailers
    `${"f".repeat(13)}\r\n`, // a size no body has
    `1;${"x".repeat(2000)}\r\na\r\n0\r\n\r\n`, // an extension too long
  ];
  for (const text of bad) {
    await assert.rejects(
      collect(bodyOf(readerOf(text, 3), { kind: "chunked" })),
      HttpProtocolError,
      JSON.stringify(text.slice(0, 20)),
    );
  }
});

Deno.test("a Content-Length body ends at its length and fails when the connection closes early", async () => {
  const reader = readerOf("hello world!HTTP/1.1", 4);
  assert.deepEqual(await collect(bodyOf(reader, { kind: "length", length: 12 })), [
    "hello world!",
    3,
  ]);
  await assert.rejects(
    collect(bodyOf(readerOf("hello", 2), { kind: "length", length: 12 })),
    /closed after 5 of the body's 12 bytes/,
  );
  assert.deepEqual(await collect(bodyOf(readerOf("x"), { kind: "length", length: 0 })), ["", 0]);
});

Deno.test("a body delimited by the close reads to the end; no body reads nothing", async () => {
  assert.equal(
    (await collect(bodyOf(readerOf("all of it", 2), { kind: "close" })))[0],
    "all of it",
  );
  const source = pieces("untouched");
  assert.deepEqual(await collect(bodyOf(new ByteReader(source), { kind: "none" })), ["", 0]);
  assert.equal(source.reads, 0);
});

Deno.test("the reader grows its buffer for a long line and keeps the bytes in order", async () => {
  const long = "x".repeat(100);
  const reader = new ByteReader(pieces(...cut(`${long}\r\nrest`, 7)), 16);
  let line: string | null = null;
  while ((line = reader.line(1000)) === null) assert.ok(await reader.fill());
  assert.equal(line, long);
  assert.equal(await rest(reader), "rest");
});
