import assert from "node:assert/strict";
import { startHubSimulator } from "./powerhub_sim.ts";
import { waitFor } from "../_helpers.ts";

interface RawClient {
  ws: WebSocket;
  frames: unknown[];
  opened: Promise<boolean>;
  closed: Promise<void>;
}

function connect(url: string): RawClient {
  const ws = new WebSocket(url);
  const frames: unknown[] = [];
  ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)));
  const opened = new Promise<boolean>((resolve) => {
    ws.addEventListener("open", () => resolve(true));
    ws.addEventListener("close", () => resolve(false));
  });
  const closed = new Promise<void>((resolve) => ws.addEventListener("close", () => resolve()));
  return { ws, frames, opened, closed };
}

async function closeClient(client: RawClient): Promise<void> {
  if (client.ws.readyState === WebSocket.OPEN) client.ws.close();
  await client.closed;
}

Deno.test("the simulator sends the nested snapshot of ten channels on connect", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const client = connect(sim.url);
  await waitFor(() => client.frames.length === 1, "the snapshot");
  const usb = [1, 2, 3, 4, 5].map((id) => ({ id, on: 0 }));
  assert.deepEqual(client.frames[0], { control: { usb, mx24v: usb } });
  assert.equal(sim.clients, 1);
  assert.match(sim.url, /^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
  await closeClient(client);
  await sim.close();
});

Deno.test("the simulator broadcasts every accepted command to all clients", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const a = connect(sim.url);
  const b = connect(sim.url);
  await waitFor(() => a.frames.length === 1 && b.frames.length === 1, "both snapshots");
  a.ws.send(JSON.stringify({ usb: { id: 3, on: 1 } }));
  await waitFor(() => a.frames.length === 2 && b.frames.length === 2, "the broadcast");
  assert.deepEqual(b.frames[1], { usb: [{ id: 3, on: 1 }] });
  assert.deepEqual(a.frames[1], { usb: [{ id: 3, on: 1 }] });
  assert.equal(sim.channels.usb?.["3"], 1);
  assert.deepEqual(sim.commands, [{ kind: "usb", id: 3, on: 1 }]);
  await Promise.all([closeClient(a), closeClient(b)]);
  await sim.close();
});

Deno.test("the simulator ignores malformed commands and unknown channels", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const client = connect(sim.url);
  await waitFor(() => client.frames.length === 1, "the snapshot");
  client.ws.send("not json");
  client.ws.send(JSON.stringify({ usb: { id: 9, on: 1 } }));
  client.ws.send(JSON.stringify({ mx24v: { id: "1", on: 1 } }));
  client.ws.send(JSON.stringify({ mx24v: { id: 1, on: 1 } }));
  await waitFor(() => client.frames.length === 2, "the one valid broadcast");
  assert.deepEqual(sim.commands, [{ kind: "mx24v", id: 1, on: 1 }]);
  await closeClient(client);
  await sim.close();
});

Deno.test("setChannel() switches like a button press and broadcasts it", async () => {
  const sim = await startHubSimulator({ port: 0, layout: [{ kind: "usb", id: 1 }] });
  const client = connect(sim.url);
  await waitFor(() => client.frames.length === 1, "the snapshot");
  assert.deepEqual(client.frames[0], { control: { usb: [{ id: 1, on: 0 }] } });
  sim.setChannel("usb", 1, true);
  await waitFor(() => client.frames.length === 2, "the broadcast");
  assert.deepEqual(client.frames[1], { usb: [{ id: 1, on: 1 }] });
  assert.throws(() => sim.setChannel("mx24v", 1, true), RangeError);
  await closeClient(client);
  await sim.close();
});

Deno.test("setDelayMs() holds back outgoing frames", async () => {
  const sim = await startHubSimulator({ port: 0 });
  sim.setDelayMs(60_000);
  const client = connect(sim.url);
  assert.equal(await client.opened, true);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(client.frames.length, 0);
  await closeClient(client);
  await sim.close();
});

Deno.test("setDropConnections() closes open clients and every new connection", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const first = connect(sim.url);
  await waitFor(() => first.frames.length === 1, "the snapshot");
  sim.setDropConnections(true);
  await first.closed;
  const second = connect(sim.url);
  await second.closed;
  assert.equal(second.frames.length, 0);
  sim.setDropConnections(false);
  const third = connect(sim.url);
  await waitFor(() => third.frames.length === 1, "a snapshot after dropping stopped");
  await closeClient(third);
  await sim.close();
});

Deno.test("setRefuse() answers upgrades with 503 so the client never opens", async () => {
  const sim = await startHubSimulator({ port: 0 });
  sim.setRefuse(true);
  const refused = connect(sim.url);
  refused.ws.onerror = () => {};
  assert.equal(await refused.opened, false);
  await refused.closed;
  sim.setRefuse(false);
  const accepted = connect(sim.url);
  assert.equal(await accepted.opened, true);
  await closeClient(accepted);
  await sim.close();
});
