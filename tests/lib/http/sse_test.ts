import assert from "node:assert/strict";
import { Hono } from "hono";
import { MAX_PENDING, type SseItem, sseResponse } from "../../../lib/http/sse.ts";

/** An app whose `/events` stream is fed by `state.send` (set once a client connects). */
function eventsApp() {
  const state = { send: (_: SseItem) => {}, unsubscribed: 0 };
  const app = new Hono().get("/events", (c) =>
    sseResponse(c, (send) => {
      state.send = send;
      return () => state.unsubscribed++;
    }));
  return { app, state };
}

Deno.test("sseResponse() sends the retry delay, then each item as data and id, unbuffered", async () => {
  const { app, state } = eventsApp();
  const res = await app.request("/events");
  assert.equal(res.headers.get("Content-Type"), "text/event-stream; charset=utf-8");
  assert.equal(res.headers.get("Cache-Control"), "no-cache");
  assert.equal(res.headers.get("X-Accel-Buffering"), "no");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  state.send({ id: 7, data: { type: "status", n: 1 } });
  let text = "";
  while (!text.includes('"n":1')) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the stream ended before its event: ${text}`);
    text += value;
  }
  assert.match(text, /^retry: 2000\n\n/);
  assert.match(text, /^data: \{"type":"status","n":1\}\nid: 7\n\n/m);
  await reader.cancel();
  assert.equal(state.unsubscribed, 1, "a client that goes away is unsubscribed");
});

Deno.test("sseResponse() drops a client that stops reading instead of queuing without bound", async () => {
  const { app, state } = eventsApp();
  const res = await app.request("/events");
  for (let i = 0; i < 4 * MAX_PENDING && state.unsubscribed === 0; i++) {
    state.send({ id: i, data: "x".repeat(100) });
    await Promise.resolve();
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(state.unsubscribed, 1, "the stalled client is dropped");
  // Its stream ends (the browser reconnects with Last-Event-ID) after at most what was queued.
  const text = await res.text();
  assert.ok(text.length < MAX_PENDING * 200, `${text.length} characters were queued`);
});
