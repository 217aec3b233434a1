import assert from "node:assert/strict";
import { createLogger } from "../../../lib/log.ts";
import {
  createHubClient,
  type HubClientOptions,
  type StatesUpdate,
} from "../../../plugins/branchplus/powerhub_client.ts";
import { startHubSimulator } from "../../doubles/powerhub_sim.ts";
import { waitFor } from "../../_helpers.ts";
import { defaultSettings } from "../../../plugins/branchplus/settings.ts";
import { FakeClock } from "./fakes.ts";

const quiet = createLogger("test.hub", { level: "error", sink: () => {} });

function client(url: string, clock: FakeClock, extra: Partial<HubClientOptions> = {}) {
  const connections: boolean[] = [];
  const updates: StatesUpdate[] = [];
  const hub = createHubClient({
    url,
    clock,
    logger: quiet,
    onConnection: (c) => connections.push(c),
    onStates: (u) => updates.push(u),
    ...extra,
  });
  return { hub, connections, updates };
}

function unusedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

Deno.test("the hub client connects, reports connected and keeps the snapshot", async () => {
  const sim = await startHubSimulator({ port: 0 });
  sim.setChannel("mx24v", 2, true);
  const { hub, connections, updates } = client(sim.url, new FakeClock());
  await waitFor(() => hub.synced, "the snapshot");
  assert.equal(hub.connected, true);
  assert.deepEqual(connections, [true]);
  assert.deepEqual(hub.states(), sim.channels);
  assert.equal(updates[0]!.initial, true);
  assert.deepEqual(updates[0]!.changed, sim.channels);
  await hub.stop();
  await sim.close();
});

Deno.test("send() switches a channel and the broadcast updates the snapshot", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const { hub, updates } = client(sim.url, new FakeClock());
  await waitFor(() => hub.synced, "the snapshot");
  assert.deepEqual(hub.send("usb", 2, true), { ok: true });
  await waitFor(() => hub.states().usb?.["2"] === 1, "the broadcast");
  assert.deepEqual(sim.commands, [{ kind: "usb", id: 2, on: 1 }]);
  const last = updates.at(-1)!;
  assert.deepEqual(last.changed, { usb: { "2": 1 } });
  assert.equal(last.initial, false);
  await hub.stop();
  await sim.close();
});

Deno.test("a switch made by another client reaches this one through the broadcast", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const clock = new FakeClock();
  const a = client(sim.url, clock);
  const b = client(sim.url, clock);
  await waitFor(() => a.hub.synced && b.hub.synced, "both snapshots");
  b.hub.send("mx24v", 5, true);
  await waitFor(() => a.hub.states().mx24v?.["5"] === 1, "the broadcast");
  await Promise.all([a.hub.stop(), b.hub.stop()]);
  await sim.close();
});

Deno.test("after a drop the client reconnects with doubling backoff and re-syncs", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const clock = new FakeClock();
  const { hub, connections } = client(sim.url, clock, {
    reconnectMaxMs: 8000,
    connectTimeoutMs: 60_000,
  });
  await waitFor(() => hub.synced, "the snapshot");

  sim.setRefuse(true);
  sim.setDropConnections(true);
  await waitFor(() => !hub.connected, "the drop");
  assert.deepEqual(connections, [true, false]);
  assert.deepEqual(hub.states(), {});
  assert.equal(hub.send("usb", 1, true).ok, false);
  assert.equal((hub.send("usb", 1, true) as { reason: string }).reason, "not_connected");
  sim.setDropConnections(false);
  sim.setChannel("usb", 5, true);

  assert.deepEqual(clock.pendingDelays(), [1000]);
  clock.advance(1000);
  await waitFor(
    () => clock.pendingDelays().length === 1 && clock.pendingDelays()[0] === 2000,
    "2 s",
  );
  clock.advance(2000);
  await waitFor(
    () => clock.pendingDelays().length === 1 && clock.pendingDelays()[0] === 4000,
    "4 s",
  );
  sim.setRefuse(false);
  clock.advance(4000);
  await waitFor(() => hub.synced, "the new snapshot");
  assert.deepEqual(connections, [true, false, true]);
  assert.equal(hub.states().usb?.["5"], 1);
  assert.equal(hub.nextDelayMs, 1000);
  await hub.stop();
  await sim.close();
});

Deno.test("the backoff stops doubling at the maximum", async () => {
  const clock = new FakeClock();
  const url = `ws://127.0.0.1:${unusedPort()}/ws`;
  const { hub } = client(url, clock, {
    reconnectMinMs: 1000,
    reconnectMaxMs: 4000,
    connectTimeoutMs: 60_000,
  });
  const retry = () => clock.pendingDelays().length === 1 && clock.pendingDelays()[0]! < 60_000;
  const seen: number[] = [];
  for (let i = 0; i < 4; i++) {
    await waitFor(retry, "a retry");
    const delay = clock.pendingDelays()[0]!;
    seen.push(delay);
    clock.advance(delay);
  }
  assert.deepEqual(seen, [1000, 2000, 4000, 4000]);
  await hub.stop();
  assert.deepEqual(clock.pendingDelays(), []);
});

Deno.test("a hub that never answers the handshake times out and is retried", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) accepted.push(conn);
  })();
  const clock = new FakeClock();
  const { hub, connections } = client(`ws://127.0.0.1:${listener.addr.port}/ws`, clock, {
    connectTimeoutMs: 5000,
  });
  await waitFor(() => accepted.length === 1, "the TCP connection");
  assert.deepEqual(clock.pendingDelays(), [5000]);
  clock.advance(5000);
  await waitFor(() => clock.pendingDelays()[0] === 1000, "the retry after the timeout");
  assert.deepEqual(connections, []);
  await hub.stop();
  for (const conn of accepted) conn.close();
  listener.close();
  await accepting.catch(() => {});
});

Deno.test("stop() closes the socket and cancels reconnecting", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const clock = new FakeClock();
  const { hub } = client(sim.url, clock);
  await waitFor(() => hub.synced, "the snapshot");
  await hub.stop();
  await waitFor(() => sim.clients === 0, "the server side to close");
  assert.deepEqual(clock.pendingDelays(), []);
  await hub.stop();
  await sim.close();
});

Deno.test("stop() logs the closed connection at INFO; a connection the hub drops is a WARNING", async () => {
  const sim = await startHubSimulator({ port: 0 });
  const lines: string[] = [];
  const logger = createLogger("test.hub", { level: "debug", sink: (_l, s) => lines.push(s) });
  const { hub } = client(sim.url, new FakeClock(), { logger });
  await waitFor(() => hub.synced, "the snapshot");
  sim.setDropConnections(true);
  await waitFor(() => !hub.connected, "the drop");
  assert.equal(
    lines.filter((l) => / - WARNING - Lost the connection to the hub/.test(l)).length,
    1,
  );
  sim.setDropConnections(false);
  const clock = new FakeClock();
  const second = client(sim.url, clock, { logger });
  await waitFor(() => second.hub.synced, "the second snapshot");
  lines.length = 0;
  await second.hub.stop();
  assert.deepEqual(lines.filter((l) => / - (WARNING|ERROR) - /.test(l)), []);
  assert.equal(lines.filter((l) => / - INFO - Closed the connection to the hub/.test(l)).length, 1);
  await hub.stop();
  await sim.close();
});

Deno.test("at the default settings a hub back after a long outage is reconnected within 5 s of its return", async () => {
  const defaults = defaultSettings();
  let sim = await startHubSimulator({ port: 0 });
  const port = sim.port;
  const clock = new FakeClock();
  let opened = 0;
  let closed = 0;
  const { hub } = client(sim.url, clock, {
    reconnectMinMs: defaults.reconnect_min * 1000,
    reconnectMaxMs: defaults.reconnect_max * 1000,
    createSocket: (url) => {
      const ws = new WebSocket(url);
      opened++;
      ws.addEventListener("close", () => closed++);
      return ws;
    },
  });
  // Waits for the attempt under way to end, then moves the clock to the next one.
  const nextAttempt = async () => {
    await waitFor(() => closed === opened && clock.pendingDelays().length === 1, "a retry");
    const delay = clock.pendingDelays()[0]!;
    clock.advance(delay);
    return delay;
  };
  try {
    await waitFor(() => hub.synced, "the snapshot");
    await sim.close();
    await waitFor(() => !hub.connected, "the loss");
    let down = 0;
    while (down < 120_000) down += await nextAttempt();
    // Back on the same port right after a failed attempt: the longest wait there can be.
    await waitFor(() => closed === opened && clock.pendingDelays().length === 1, "a retry");
    sim = await startHubSimulator({ port });
    let waited = 0;
    for (let i = 0; i < 10 && !hub.connected; i++) {
      waited += await nextAttempt();
      await waitFor(() => hub.connected || closed === opened, "the attempt");
    }
    assert.equal(hub.connected, true);
    assert.ok(waited <= 5000, `reconnected ${waited} ms after the hub was back`);
  } finally {
    await hub.stop();
    await sim.close();
  }
});
