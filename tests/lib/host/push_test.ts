import assert from "node:assert/strict";
import {
  createHost,
  LAGGED_CLOSE,
  PushHub,
  SOCKETS_PER_ACCOUNT,
  SOCKETS_TOTAL,
  TOO_MANY_SOCKETS_CLOSE,
} from "../../../lib/host/mod.ts";
import type { PluginContext, PluginDescriptor } from "../../../lib/host/plugin.ts";
import { openWs, waitFor, type WsClient } from "./_helpers.ts";
import { serverFrames, stalledClient, upgradeHead } from "../../_stalled_client.ts";
import * as v from "valibot";
import { serveHostApp } from "../../_web.ts";

let captured: PluginContext | null = null;
const pusher: PluginDescriptor = {
  id: "pusher",
  name: "Pusher",
  version: "1",
  settingsVersion: 1,
  settingsSchema: v.strictObject({}),
  create(ctx) {
    return {
      start() {
        captured = ctx;
      },
    };
  },
};

async function served() {
  const dir = await Deno.makeTempDir();
  const host = createHost({ plugins: [pusher], dataDir: dir });
  const s = await serveHostApp(host, { pages: false });
  const status = await host.users.addUser("s", "pw", ["STATUS"]).then(() =>
    host.users.createKey("s")
  );
  return {
    host,
    url: `ws://127.0.0.1:${s.port}`,
    http: `http://127.0.0.1:${s.port}`,
    admin: s.adminKey!,
    status,
    async close() {
      await s.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("the push socket delivers plugin messages tagged with the plugin id", async () => {
  const s = await served();
  try {
    const ws = await openWs(`${s.url}/push`, { "X-Api-Key": s.status });
    await waitFor(() => ws.messages.length >= 1);
    assert.deepEqual(ws.messages[0], { connected: { plugins: ["pusher"] } });
    captured!.push({ type: "hello", n: 1 });
    await waitFor(() => ws.messages.length >= 2);
    assert.deepEqual(ws.messages[1], {
      plugin: { plugin: "pusher", data: { type: "hello", n: 1 } },
    });
    await ws.close();
  } finally {
    await s.close();
  }
});

Deno.test("the /sockjs/websocket alias accepts a key sent as the first message", async () => {
  const s = await served();
  try {
    const ws = await openWs(`${s.url}/sockjs/websocket`);
    captured!.push({ type: "early" });
    ws.send({ auth: s.admin });
    await waitFor(() => ws.messages.length >= 1);
    captured!.push({ type: "late" });
    await waitFor(() => ws.messages.length >= 2);
    assert.deepEqual(
      ws.messages.map((m) => JSON.stringify(m)).filter((m) => m.includes("early")),
      [],
    );
    assert.equal(
      (ws.messages[1] as { plugin: { data: { type: string } } }).plugin.data.type,
      "late",
    );
    await ws.close();
  } finally {
    await s.close();
  }
});

Deno.test("the push socket refuses a missing, wrong or cross-origin credential", async () => {
  const s = await served();
  try {
    const noKey = await fetch(`${s.http}/push`);
    assert.equal(noKey.status, 400);
    await noKey.body?.cancel();
    await assert.rejects(openWs(`${s.url}/push`, { "X-Api-Key": "wrong" }));
    const bad = await openWs(`${s.url}/push`);
    bad.send({ auth: "wrong" });
    assert.equal((await bad.closed).code, 4401);
    const silent = await openWs(`${s.url}/push`);
    silent.send({ hello: 1 });
    await silent.close();
  } finally {
    await s.close();
  }
});

Deno.test("a client that never authenticates is closed after the timeout", async () => {
  const s = await served();
  try {
    const ws = await openWs(`${s.url}/push`);
    const ev = await Promise.race([
      ws.closed,
      new Promise<null>((r) => setTimeout(() => r(null), 8000)),
    ]);
    assert.equal(ev?.code, 4401);
  } finally {
    await s.close();
  }
});

Deno.test("PushHub filters by permission and drops a failing client without stopping delivery", () => {
  const hub = new PushHub();
  const got: string[] = [];
  hub.add({
    send: () => {
      throw new Error("gone");
    },
    permissions: ["ADMIN"],
  });
  hub.add({ send: (t) => got.push(`status:${t}`), permissions: ["STATUS"] });
  hub.add({ send: (t) => got.push(`none:${t}`), permissions: null });
  hub.send("p", { a: 1 });
  hub.send("p", { secret: 1 }, "ADMIN");
  assert.equal(got.length, 1);
  assert.ok(got[0]!.startsWith("status:"));
  assert.equal(hub.size, 2);
});

Deno.test("a stopping host closes its push clients and refuses new ones, so its server can stop", async () => {
  const s = await served();
  try {
    const ws = await openWs(`${s.url}/push`, { "X-Api-Key": s.status });
    await waitFor(() => ws.messages.length >= 1);
    s.host.push.closeAll();
    const res = await fetch(`${s.http}/push`, {
      headers: { Upgrade: "websocket", "X-Api-Key": s.status },
    });
    assert.equal(res.status, 503);
    assert.match((await res.json()).error, /shutting down/);
    await ws.close();
  } finally {
    await s.close();
  }
});

Deno.test("PushHub closes a client added after closeAll at once", () => {
  const hub = new PushHub();
  hub.closeAll();
  let closed = 0;
  hub.add({ send: () => {}, permissions: ["STATUS"], close: () => closed++ });
  assert.equal(closed, 1);
  assert.equal(hub.size, 0);
  assert.equal(hub.closed, true);
});

Deno.test("a push socket that never reads is closed as lagged while the others keep receiving", async () => {
  const s = await served();
  const port = Number(new URL(s.http).port);
  const stalled = await stalledClient(port, upgradeHead(port, "/push", { "X-Api-Key": s.status }));
  try {
    const reader = await openWs(`${s.url}/push`, { "X-Api-Key": s.status });
    await waitFor(() => s.host.push.size === 2 && reader.messages.length >= 1);
    const chunk = "z".repeat(16 * 1024);
    let sent = 0;
    // Loopback socket buffers take megabytes before the server's queue grows: bounded loop.
    for (; sent < 4000 && s.host.push.size === 2; sent++) {
      captured!.push({ type: "burst", n: sent, chunk });
      if (sent % 8 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    assert.equal(s.host.push.size, 1, `the stalled socket is still served after ${sent} messages`);
    captured!.push({ type: "after" });
    await waitFor(() => reader.messages.some((m) => JSON.stringify(m).includes('"after"')));
    assert.equal(reader.messages.length, sent + 2, "the reading socket missed nothing");
    const { bytes } = await stalled.drain(2000);
    const frames = serverFrames(bytes);
    assert.equal(frames.close, LAGGED_CLOSE, "the stalled socket is told it lagged");
    assert.ok(
      !frames.texts.some((t) => t.includes('"after"')),
      "nothing more is queued for a lagging socket",
    );
    await reader.close();
    await waitFor(() => s.host.push.slots.size === 0, "the slots given back");
  } finally {
    stalled.close();
    await s.close();
  }
});

Deno.test("push sockets beyond an account's cap answer 429, or close 4429 after a first-message key", async () => {
  const s = await served();
  const open: WsClient[] = [];
  try {
    for (let i = 0; i < SOCKETS_PER_ACCOUNT; i++) {
      open.push(await openWs(`${s.url}/push`, { "X-Api-Key": s.status }));
    }
    const refused = await fetch(`${s.http}/push`, {
      headers: {
        Upgrade: "websocket",
        Connection: "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
        "X-Api-Key": s.status,
      },
    });
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).code, "too_many_requests");
    assert.ok(refused.headers.get("Retry-After"));
    // Another account still connects; a key given as the first message into the full account is closed.
    open.push(await openWs(`${s.url}/push`, { "X-Api-Key": s.admin }));
    const late = await openWs(`${s.url}/push`);
    late.send({ auth: s.status });
    assert.equal((await late.closed).code, TOO_MANY_SOCKETS_CLOSE);
    await open.shift()!.close();
    const again = await openWs(`${s.url}/push`, { "X-Api-Key": s.status });
    open.push(again);
    await waitFor(() => again.messages.length >= 1, "a freed slot taken again");
  } finally {
    for (const ws of open) await ws.close();
    await s.close();
  }
});

Deno.test("PushHub caps sockets overall and closes a client whose queue passed its bound", () => {
  const hub = new PushHub(undefined, { maxQueuedBytes: 100, sockets: { perKey: 1, total: 2 } });
  assert.ok(hub.slots.take("account:a"));
  assert.ok(hub.slots.take("account:b"));
  assert.equal(hub.slots.take("account:c"), null);
  let queued = 0;
  const got: string[] = [];
  const closed: number[] = [];
  hub.add({
    send: (t) => {
      got.push(t);
      queued += t.length;
    },
    queued: () => queued,
    permissions: ["STATUS"],
    close: (code) => closed.push(code ?? 0),
  });
  for (let i = 0; i < 10; i++) hub.send("p", { pad: "x".repeat(30) });
  assert.equal(got.length, 2, "sent until more than 100 bytes waited");
  assert.deepEqual(closed, [LAGGED_CLOSE]);
  assert.equal(hub.size, 0);
  assert.equal(new PushHub().slots.limits.total, SOCKETS_TOTAL);
});
