import assert from "node:assert/strict";
import { Hono } from "hono";
import { limitBody, readBodyText, readJsonObject } from "../../../lib/http/body.ts";
import { errorHandler } from "../../../lib/http/error_handler.ts";

function app() {
  const a = new Hono();
  a.onError(errorHandler());
  a.use("*", limitBody(100));
  a.post("/text", async (c) => c.text(await c.req.text()));
  a.post("/read", async (c) => c.text(await readBodyText(c, 10)));
  a.post("/json", async (c) => c.json(await readJsonObject(c, { maxDepth: 2 })));
  return a;
}

function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return app().request(path, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

function stream(bytes: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(new Uint8Array(bytes).fill(0x61));
      c.close();
    },
  });
}

Deno.test("limitBody() caps a handler that reads the body its own way with 413 and {error, code}, declared or not", async () => {
  assert.equal((await post("/text", "x".repeat(100))).status, 200);
  for (
    const res of [
      await post("/text", "{}", { "Content-Length": "101" }),
      await post("/text", stream(101)),
    ]
  ) {
    assert.equal(res.status, 413);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ["error", "code"]);
    assert.equal(body.code, "body_too_large");
  }
});

Deno.test("readBodyText() and readJsonObject() answer 413, 400 and the object", async () => {
  assert.equal(await (await post("/read", "0123456789")).text(), "0123456789");
  assert.equal((await post("/read", stream(11))).status, 413);
  assert.deepEqual(await (await post("/json", '{"a": {"b": 1}}')).json(), { a: { b: 1 } });
  assert.deepEqual(await (await post("/json", "")).json(), {});
  for (
    const [body, message] of [["[[[1]]]", /nested deeper than 2/], ["{x", /not valid JSON/], [
      "[1]",
      /JSON object/,
    ]]
  ) {
    const res = await post("/json", body as string);
    assert.equal(res.status, 400, String(body));
    assert.match((await res.json()).error, message as RegExp);
  }
});
