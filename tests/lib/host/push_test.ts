import assert from "node:assert/strict";
import { createHost, PushHub } from "../../../lib/host/mod.ts";
import type { PluginContext, PluginDescriptor } from "../../../lib/host/plugin.ts";
import { openWs, waitFor } from "./_helpers.ts";
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
