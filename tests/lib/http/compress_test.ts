import assert from "node:assert/strict";
import { Hono } from "hono";
import { compressAnswers } from "../../../lib/http/mod.ts";

function app() {
  return new Hono()
    .use("*", compressAnswers())
    .get("/small", (c) => c.json({ files: [{ name: "host.log", size: 2 }] }))
    .get("/large", (c) => c.json({ text: "x".repeat(5000) }))
    .get("/page", (c) => c.html(`<p>${"y".repeat(5000)}</p>`))
    .get("/stream", () =>
      new Response(
        new ReadableStream({
          start(ctl) {
            ctl.enqueue(new TextEncoder().encode("data: 1\n\n"));
            ctl.close();
          },
        }),
        { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-transform" } },
      ));
}

const gzip = { headers: { "Accept-Encoding": "gzip" } };

Deno.test("compressAnswers() sends a small JSON answer as it is, with its length", async () => {
  const res = await app().request("/small", gzip);
  assert.equal(res.headers.get("Content-Encoding"), null);
  const text = await res.text();
  assert.equal(res.headers.get("Content-Length"), String(new TextEncoder().encode(text).length));
  assert.deepEqual(JSON.parse(text), { files: [{ name: "host.log", size: 2 }] });
});

Deno.test("compressAnswers() still gzips a JSON answer over 1 KiB, and pages", async () => {
  for (const path of ["/large", "/page"]) {
    const res = await app().request(path, gzip);
    assert.equal(res.headers.get("Content-Encoding"), "gzip", path);
    const plain = await new Response(res.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    assert.ok(plain.includes("x".repeat(5000)) || plain.includes("y".repeat(5000)), path);
  }
});

Deno.test("compressAnswers() leaves an event stream unread and uncompressed", async () => {
  const res = await app().request("/stream", gzip);
  assert.equal(res.headers.get("Content-Encoding"), null);
  assert.equal(res.headers.get("Content-Length"), null);
  assert.equal(await res.text(), "data: 1\n\n");
});

Deno.test("compressAnswers() reads no more of a large JSON answer than its first kilobyte before it is sent", async () => {
  let pulled = 0;
  const chunk = new TextEncoder().encode(`"${"z".repeat(600)}",`);
  const app = new Hono().use("*", compressAnswers()).get("/big", () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start: (ctl) => ctl.enqueue(new TextEncoder().encode("[")),
        pull(ctl) {
          pulled++;
          if (pulled <= 100) ctl.enqueue(chunk);
          else {
            ctl.enqueue(new TextEncoder().encode("0]"));
            ctl.close();
          }
        },
      }, { highWaterMark: 0 }),
      { headers: { "Content-Type": "application/json" } },
    ));
  const res = await app.request("/big", gzip);
  assert.ok(pulled <= 3, `${pulled} chunks read before the answer left`);
  assert.equal(res.headers.get("Content-Encoding"), "gzip");
  const plain = await new Response(res.body!.pipeThrough(new DecompressionStream("gzip"))).json();
  assert.equal(plain.length, 101);
  assert.equal(plain[0], "z".repeat(600));
});
