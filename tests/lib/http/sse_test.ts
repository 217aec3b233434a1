import assert from "node:assert/strict";
import { Hono } from "hono";
import { type SseItem, type SseOptions, sseResponse } from "../../../lib/http/sse.ts";
import { ConnectionSlots } from "../../../lib/http/slots.ts";
import { errorHandler } from "../../../lib/http/error_handler.ts";
import { stalledClient } from "../../_stalled_client.ts";
import { waitFor } from "../../_helpers.ts";

/** An app whose `/events` stream is fed by `state.send` (set once a client connects). */
function eventsApp(options: SseOptions = {}) {
  const state = { send: (_: SseItem) => {}, unsubscribed: 0 };
  const app = new Hono().get("/events", (c) =>
    sseResponse(c, (send) => {
      state.send = send;
      return () => state.unsubscribed++;
    }, { key: c.req.query("who"), ...options }));
  app.onError(errorHandler());
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

Deno.test("sseResponse() tells a client that stops reading it lagged, then ends its stream", async () => {
  const { app, state } = eventsApp({ maxQueuedBytes: 64 * 1024 });
  const res = await app.request("/events");
  let sent = 0;
  for (; sent < 10_000 && state.unsubscribed === 0; sent++) {
    state.send({ id: sent, data: "x".repeat(1000) });
    await Promise.resolve();
  }
  assert.equal(state.unsubscribed, 1, "the lagging client is unsubscribed");
  assert.ok(sent < 100, `${sent} events were queued for it`);
  // A client that reads again gets what was queued, the lag notice, and the end of the stream.
  const text = await res.text();
  assert.ok(text.length < 70 * 1024, `${text.length} characters were queued`);
  assert.match(text, /data: \{"type":"lagged","unsent_bytes":\d+\}\n\n$/);
});

Deno.test("sseResponse() stops queueing for a real loopback client that never reads", async () => {
  const slots = new ConnectionSlots({ perKey: 4, total: 8 });
  const { app, state } = eventsApp({ slots, maxQueuedBytes: 64 * 1024, lagGraceMs: 200 });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req, info) => app.fetch(req, info),
  );
  const client = await stalledClient(server.addr.port, ["GET /events?who=a HTTP/1.1", "Host: x"]);
  try {
    await waitFor(() => slots.count("a") === 1);
    // Loopback socket buffers take megabytes before the server's queue grows: bounded loop.
    let sent = 0;
    for (; sent < 200_000 && state.unsubscribed === 0; sent++) {
      state.send({ id: sent, data: "y".repeat(1000) });
      if (sent % 50 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    assert.equal(state.unsubscribed, 1, "the stalled client is unsubscribed");
    await new Promise((r) => setTimeout(r, 400)); // past the grace: its queue is dropped
    assert.equal(slots.count("a"), 1, "its slot is held while its connection lasts");
    const { bytes } = await client.drain(500);
    assert.ok(
      bytes.length < 32 * 1024 * 1024,
      `${bytes.length} bytes of ${sent * 1000} reached it`,
    );
    client.close();
    await waitFor(() => slots.size === 0, "the slot given back");
  } finally {
    client.close();
    await server.shutdown();
  }
});

Deno.test("sseResponse() answers 429 beyond the streams of one key or of all", async () => {
  const slots = new ConnectionSlots({ perKey: 2, total: 3 });
  const { app } = eventsApp({ slots });
  const a1 = await app.request("/events?who=a");
  const a2 = await app.request("/events?who=a");
  const a3 = await app.request("/events?who=a");
  assert.deepEqual([a1.status, a2.status, a3.status], [200, 200, 429]);
  assert.equal((await a3.json()).code, "too_many_requests");
  assert.ok(a3.headers.get("Retry-After"));
  const b1 = await app.request("/events?who=b");
  const b2 = await app.request("/events?who=b");
  assert.deepEqual([b1.status, b2.status], [200, 429], "the total cap holds over keys");
  await b2.body?.cancel();
  await a1.body!.cancel();
  await waitFor(() => slots.size === 2);
  const again = await app.request("/events?who=a");
  assert.equal(again.status, 200, "a closed stream gives its slot back");
  for (const r of [a2, b1, again]) await r.body!.cancel();
  await waitFor(() => slots.size === 0);
});

Deno.test("sseResponse() never counts the replay sent on subscribing as lagging", async () => {
  const replay = Array.from({ length: 50 }, (_, i) => ({ id: i, data: "r".repeat(1000) }));
  let live = (_: SseItem) => {};
  let unsubscribed = 0;
  const app = new Hono().get("/events", (c) =>
    sseResponse(c, (send) => {
      for (const item of replay) send(item);
      live = send;
      return () => unsubscribed++;
    }, { maxQueuedBytes: 8 * 1024 }));
  const res = await app.request("/events");
  live({ id: 50, data: "live" });
  await Promise.resolve();
  assert.equal(unsubscribed, 0, "a 50 KB replay over an 8 KiB bound is sent whole");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes('"live"')) {
    const { value, done } = await reader.read();
    assert.ok(!done, "the stream ended before the live event");
    text += value;
  }
  assert.equal(text.match(/^id: /gm)?.length, 51);
  await reader.cancel();
});
