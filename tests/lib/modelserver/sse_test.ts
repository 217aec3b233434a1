import assert from "node:assert/strict";
import { isDoneEvent, readSse, type SseEvent, SseParser } from "../../../lib/modelserver/mod.ts";

function parseInPieces(text: string, size: number): SseEvent[] {
  const p = new SseParser();
  const out: SseEvent[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...p.push(text.slice(i, i + size)));
  out.push(...p.end());
  return out;
}

const NAMED = 'event: chat.start\ndata: {"type":"chat.start","model_instance_id":"m"}\n\n' +
  'event: message.delta\ndata: {"type":"message.delta","content":"Hi"}\n\n';

Deno.test("SseParser reads event:+data: streams whatever the chunk size", () => {
  for (const size of [1, 2, 3, 7, 1000]) {
    const events = parseInPieces(NAMED, size);
    assert.deepEqual(
      events.map((e) => e.event),
      ["chat.start", "message.delta"],
      `chunk size ${size}`,
    );
    assert.equal(JSON.parse(events[1]!.data).content, "Hi");
  }
});

Deno.test("SseParser reads data:-only streams and recognises [DONE]", () => {
  const events = parseInPieces('data: {"a":1}\n\ndata: [DONE]\n\n', 4);
  assert.deepEqual(events.map((e) => [e.event, e.data]), [[null, '{"a":1}'], [null, "[DONE]"]]);
  assert.deepEqual(events.map(isDoneEvent), [false, true]);
});

Deno.test("SseParser handles CRLF split between chunks, comments, multi-line data and ids", () => {
  const text = ": keep-alive\r\nid: 7\r\nevent: x\r\ndata: line1\r\ndata:line2\r\n\r\n";
  for (const size of [1, 5, 13]) {
    assert.deepEqual(parseInPieces(text, size), [{ event: "x", data: "line1\nline2", id: "7" }]);
  }
  assert.deepEqual(parseInPieces("data: a\r\rdata: b\r\r", 1).map((e) => e.data), ["a", "b"]);
});

Deno.test("SseParser.end() dispatches a last event without a blank line and ignores empty events", () => {
  assert.deepEqual(parseInPieces("event: only-name\n\ndata: tail", 3).map((e) => e.data), ["tail"]);
});

Deno.test("readSse() decodes multi-byte characters split across chunks", async () => {
  const bytes = new TextEncoder().encode("data: héllo ✓\n\n");
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const b of bytes) c.enqueue(new Uint8Array([b]));
      c.close();
    },
  });
  const events: SseEvent[] = [];
  for await (const e of readSse(body)) events.push(e);
  assert.deepEqual(events.map((e) => e.data), ["héllo ✓"]);
});

Deno.test("readSse() cancels the body when the consumer stops early", async () => {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new TextEncoder().encode("data: x\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const _ of readSse(body)) break;
  assert.equal(cancelled, true);
});

Deno.test("readSse() reads a byte stream (a fetch body) through its reused buffer without mixing chunks", async () => {
  const text = Array.from({ length: 300 }, (_, i) => `data: {"t":"tök${i}"}\n\n`).join("");
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  const body = new ReadableStream({
    type: "bytes",
    pull(c) {
      // Chunks of 1 to 40 bytes, cutting through characters and events.
      const n = Math.min(1 + (at % 40), bytes.length - at);
      c.enqueue(bytes.slice(at, at + n));
      at += n;
      if (at >= bytes.length) c.close();
    },
  });
  const events: SseEvent[] = [];
  for await (const e of readSse(body)) events.push(e);
  assert.equal(events.length, 300);
  assert.deepEqual(events.map((e) => JSON.parse(e.data).t), events.map((_, i) => `tök${i}`));
});

Deno.test("readSse() reads a real fetch body chunk by chunk", async () => {
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const enc = new TextEncoder();
    let i = 0;
    return new Response(
      new ReadableStream({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 1));
          c.enqueue(enc.encode(`data: ${i}\n\n`));
          if (++i === 50) c.close();
        },
      }),
    );
  });
  const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
  const data: string[] = [];
  for await (const e of readSse(res.body!)) data.push(e.data);
  assert.deepEqual(data, Array.from({ length: 50 }, (_, i) => String(i)));
});

Deno.test("readSse() stamps the events of one network read with that read's time", async () => {
  const enc = new TextEncoder();
  const chunks = ["data: a\n\ndata: b\n\n", "data: c\n\n"];
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      await new Promise((r) => setTimeout(r, 5));
      const next = chunks.shift();
      if (next === undefined) c.close();
      else c.enqueue(enc.encode(next));
    },
  });
  const events: SseEvent[] = [];
  for await (const e of readSse(body)) events.push(e);
  assert.deepEqual(events.map((e) => e.data), ["a", "b", "c"]);
  assert.equal(events[0]!.readAt, events[1]!.readAt);
  assert.ok(events[2]!.readAt! > events[1]!.readAt!);
});
