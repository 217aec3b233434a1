import assert from "node:assert/strict";
import { createLogger } from "../../../lib/log.ts";
import { waitFor } from "../../_helpers.ts";
import { MqttPublisher } from "../../../plugins/temp_eta/mqtt.ts";
import { QUEUE_LIMIT } from "../../../plugins/temp_eta/mqtt_queue.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";
import type { HeaterStatus } from "../../../plugins/temp_eta/status.ts";
import { fakeFactory, type FakeMqttClient, flush, ManualClock } from "./fakes.ts";

const logger = createLogger("test", { sink: () => {} });

function status(heater: string, state: HeaterStatus["state"]): HeaterStatus {
  return {
    heater,
    eta_seconds: state === "heating" ? 42 : null,
    eta_kind: state === "heating" ? "heating" : null,
    state,
    target: 200,
    actual: 150,
    cooling_target: 50,
    rate: 1.5,
    timestamp: 1_700_000_000,
    progress: 70,
    method: "linear",
  };
}

/** What a client published but the availability topic. */
const etas = (c: FakeMqttClient) => c.published.filter((p) => !p.topic.endsWith("/status"));

function setup(overrides: Record<string, unknown> = {}, options: { statePath?: string } = {}) {
  const clock = new ManualClock();
  const { clients, factory } = fakeFactory();
  const publisher = new MqttPublisher({ clock, logger, factory, ...options });
  const settings = validateSettings({ mqtt_enabled: true, mqtt_broker: "127.0.0.1", ...overrides });
  return { clock, clients, publisher, settings };
}

/** A configured publisher for broker `b` whose log lines (debug and up) are collected. */
function logged(settings: Record<string, unknown>) {
  const lines: string[] = [];
  const clock = new ManualClock();
  const { clients, factory } = fakeFactory();
  const publisher = new MqttPublisher({
    clock,
    factory,
    logger: createLogger("t", { level: "debug", sink: (_l, line) => lines.push(line) }),
  });
  publisher.configure(validateSettings({ mqtt_enabled: true, mqtt_broker: "b", ...settings }));
  return { lines, clock, clients, publisher };
}

Deno.test("MqttPublisher publishes the DECISIONS payload to {prefix}/{heater}", async () => {
  const { clients, publisher, settings } = setup({ mqtt_qos: 1, mqtt_retain: true });
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  publisher.publish(status("tool0", "heating"));
  assert.deepEqual(etas(clients[0]!), [{
    topic: "localbench/temp_eta/tool0",
    payload: {
      heater: "tool0",
      eta_seconds: 42,
      eta_kind: "heating",
      state: "heating",
      target: 200,
      actual: 150,
      cooling_target: 50,
      rate: 1.5,
      timestamp: 1_700_000_000,
    },
    raw: etas(clients[0]!)[0]!.raw,
    qos: 1,
    retain: true,
  }]);
  assert.equal(publisher.status().published, 1);
  await publisher.close();
});

Deno.test("MqttPublisher publishes a state_change when a heater's state changes", async () => {
  const { clients, publisher, settings } = setup();
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  publisher.publish(status("bed", "heating"));
  publisher.publish(status("bed", "heating"));
  publisher.publish(status("bed", "at_target"));
  const changes = etas(clients[0]!).filter((p) => p.topic.endsWith("/state_change"));
  assert.deepEqual(changes.map((p) => [p.topic, p.payload.previous_state, p.payload.state]), [
    ["localbench/temp_eta/bed/state_change", "heating", "at_target"],
  ]);
  await publisher.close();
});

Deno.test("MqttPublisher drops QoS 0 messages while disconnected and never throws", async () => {
  const { clients, publisher, settings } = setup();
  publisher.configure(settings);
  publisher.publish(status("tool0", "heating"));
  await flush();
  publisher.publish(status("tool0", "heating"));
  assert.equal(etas(clients[0]!).length, 0);
  assert.equal(publisher.status().dropped, 2);
  assert.equal(publisher.status().connected, false);
  await publisher.close();
});

Deno.test("MqttPublisher queues QoS 1 messages while the broker is away and sends them in order", async () => {
  const { clock, clients, publisher, settings } = setup({ mqtt_qos: 1 });
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  publisher.publish(status("tool0", "heating"));
  clients[0]!.fail("read ECONNRESET");
  publisher.publish({ ...status("tool0", "heating"), eta_seconds: 41 });
  publisher.publish({ ...status("bed", "heating"), eta_seconds: 40 });
  assert.deepEqual([publisher.status().queued, publisher.status().dropped], [2, 0]);
  clock.advance(1000);
  await flush();
  clients[1]!.acceptConnection();
  assert.deepEqual(etas(clients[1]!).map((p) => [p.topic, p.payload.eta_seconds, p.qos]), [
    ["localbench/temp_eta/tool0", 41, 1],
    ["localbench/temp_eta/bed", 40, 1],
  ]);
  assert.deepEqual([publisher.status().queued, publisher.status().published], [0, 3]);
  await publisher.close();
});

Deno.test("MqttPublisher keeps at most QUEUE_LIMIT messages, dropping the oldest", async () => {
  const { clients, publisher, settings } = setup({ mqtt_qos: 2 });
  publisher.configure(settings);
  await flush();
  for (let i = 0; i < QUEUE_LIMIT + 5; i++) {
    publisher.publish({ ...status("tool0", "heating"), eta_seconds: i });
  }
  assert.deepEqual([publisher.status().queued, publisher.status().dropped], [QUEUE_LIMIT, 5]);
  clients[0]!.acceptConnection();
  assert.equal(etas(clients[0]!)[0]!.payload.eta_seconds, 5, "the oldest five went");
  assert.equal(etas(clients[0]!).length, QUEUE_LIMIT);
  await publisher.close();
});

Deno.test("MqttPublisher sends a QoS 1 message again when the broker never acknowledged it", async () => {
  const { clock, clients, publisher, settings } = setup({ mqtt_qos: 1 });
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  clients[0]!.failNextPublish = new Error("Connection closed");
  publisher.publish(status("chamber", "heating"));
  assert.equal(publisher.status().queued, 1);
  clients[0]!.fail();
  clock.advance(1000);
  await flush();
  clients[1]!.acceptConnection();
  assert.deepEqual(etas(clients[1]!).map((p) => p.topic), ["localbench/temp_eta/chamber"]);
  await publisher.close();
});

Deno.test("MqttPublisher logs a lost broker once and its recovery once", async () => {
  const { lines, clock, clients, publisher } = logged({ mqtt_qos: 1 });
  await flush();
  clients[0]!.acceptConnection();
  assert.deepEqual(lines.map((l) => l.replace(/^.*?MQTT/, "MQTT")), [
    "MQTT connected to mqtt://b:1883",
  ]);
  clients[0]!.fail("read ECONNRESET");
  for (let i = 0; i < 5; i++) {
    publisher.publish(status("tool0", "heating"));
    clock.advance(clock.pendingDelays()[0]!);
    await flush();
    clients.at(-1)!.fail("connect ECONNREFUSED");
  }
  clock.advance(clock.pendingDelays()[0]!);
  await flush();
  clients.at(-1)!.acceptConnection();
  assert.deepEqual(lines.slice(1).map((l) => l.replace(/^.*?MQTT/, "MQTT")), [
    "MQTT connection to mqtt://b:1883 lost (read ECONNRESET); reconnecting, messages are queued (up to 1000)",
    "MQTT connection to mqtt://b:1883 restored after 61 s; 5 queued messages sent, 0 dropped",
  ]);
  assert.match(lines[1]!, / - WARNING - MQTT connection/);
  assert.match(lines[2]!, / - INFO - MQTT connection/);
  await publisher.close();
});

Deno.test("MqttPublisher logs a broker it cannot reach once, however often it retries", async () => {
  const { lines, clock, clients, publisher } = logged({});
  await flush();
  for (let i = 0; i < 4; i++) {
    clients.at(-1)!.fail("connect ECONNREFUSED");
    clock.advance(clock.pendingDelays()[0]!);
    await flush();
  }
  clients.at(-1)!.acceptConnection();
  assert.deepEqual(lines.map((l) => l.replace(/^.*?MQTT/, "MQTT")), [
    "MQTT cannot connect to mqtt://b:1883 (connect ECONNREFUSED); retrying, QoS 0 messages are dropped",
    "MQTT connection to mqtt://b:1883 established after 15 s; 0 queued messages sent, 0 dropped",
  ]);
  await publisher.close();
});

Deno.test("MqttPublisher retries with exponential backoff and resets it after connecting", async () => {
  const { clock, clients, publisher, settings } = setup();
  publisher.configure(settings);
  await flush();
  const delays: number[] = [];
  for (let i = 0; i < 7; i++) {
    clients.at(-1)!.fail();
    delays.push(clock.pendingDelays()[0]!);
    clock.advance(delays.at(-1)!);
    await flush();
  }
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  assert.equal(clients.length, 8);
  assert.ok(clients.slice(0, -1).every((c) => c.ended));
  assert.equal(publisher.status().last_error, "connect ECONNREFUSED");
  clients.at(-1)!.acceptConnection();
  assert.equal(publisher.status().connected, true);
  assert.equal(publisher.status().last_error, null);
  clients.at(-1)!.fail("read ECONNRESET");
  assert.deepEqual(clock.pendingDelays(), [1000]);
  await publisher.close();
  assert.deepEqual(clock.pendingDelays(), []);
});

Deno.test("MqttPublisher reconnects when a connection setting or the prefix changes, not for QoS", async () => {
  const { clients, publisher, settings } = setup();
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  publisher.configure({ ...settings, mqtt_qos: 2, mqtt_retain: true });
  await flush();
  assert.equal(clients.length, 1);
  publisher.publish(status("bed", "heating"));
  assert.deepEqual(etas(clients[0]!).map((p) => [p.topic, p.qos]), [[
    "localbench/temp_eta/bed",
    2,
  ]]);
  // The prefix names the last will: a new connection.
  publisher.configure({ ...settings, mqtt_topic_prefix: "x/y" });
  await flush();
  assert.equal(clients.length, 2);
  assert.ok(clients[0]!.endedCleanly);
  assert.equal(clients[1]!.options.will.topic, "x/y/status");
  publisher.configure({ ...settings, mqtt_topic_prefix: "x/y", mqtt_port: 1999 });
  await flush();
  assert.equal(clients.length, 3);
  assert.ok(clients[1]!.ended);
  assert.equal(clients[2]!.url, "mqtt://127.0.0.1:1999");
  publisher.configure({ ...settings, mqtt_enabled: false });
  await flush();
  assert.ok(clients[2]!.ended);
  assert.deepEqual(publisher.status(), {
    enabled: false,
    connected: false,
    broker: null,
    status_topic: null,
    last_error: null,
    published: 1,
    queued: 0,
    dropped: 0,
    cleared: 0,
  });
});

Deno.test("MqttPublisher reports an unreadable CA file and keeps retrying", async () => {
  const clock = new ManualClock();
  const { clients, factory } = fakeFactory();
  const publisher = new MqttPublisher({
    clock,
    logger,
    factory,
    readTextFile: () => Promise.reject(new Error("No such file")),
  });
  const pem = await Deno.makeTempFile();
  publisher.configure(validateSettings({
    mqtt_enabled: true,
    mqtt_tls_enabled: true,
    mqtt_ca_cert: pem,
  }));
  await flush();
  assert.equal(clients.length, 0);
  assert.equal(publisher.status().last_error, "Cannot read 'mqtt_ca_cert': No such file");
  assert.deepEqual(clock.pendingDelays(), [1000]);
  await publisher.close();
  await Deno.remove(pem);
});

Deno.test("MqttPublisher marks {prefix}/status online (retained) and leaves offline as its last will", async () => {
  const { clients, publisher, settings } = setup({ mqtt_topic_prefix: "shop/eta" });
  publisher.configure(settings);
  await flush();
  assert.deepEqual(clients[0]!.options.will, {
    topic: "shop/eta/status",
    payload: "offline",
    qos: 1,
    retain: true,
  });
  clients[0]!.acceptConnection();
  assert.deepEqual(clients[0]!.published.map((p) => [p.topic, p.raw, p.qos, p.retain]), [
    ["shop/eta/status", "online", 1, true],
  ]);
  assert.equal(publisher.status().status_topic, "shop/eta/status");
  await publisher.close();
});

Deno.test("MqttPublisher publishes offline and disconnects cleanly when it stops", async () => {
  const { clients, publisher, settings } = setup();
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  await publisher.close();
  assert.deepEqual(clients[0]!.published.at(-1), {
    topic: "localbench/temp_eta/status",
    payload: {},
    raw: "offline",
    qos: 1,
    retain: true,
  });
  assert.ok(clients[0]!.endedCleanly, "a DISCONNECT: the broker discards the will");
});

Deno.test("MqttPublisher drops the socket when the broker does not take offline in time", async () => {
  const { clock, clients, publisher, settings } = setup();
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  clients[0]!.holdAcks = true;
  const closed = publisher.close();
  await flush();
  assert.equal(clients[0]!.ended, false);
  clock.advance(2000);
  await closed;
  assert.ok(clients[0]!.ended && !clients[0]!.endedCleanly, "forced: the will says offline");
});

/** The retained messages a client published, as [topic, payload] (clearing ones are ""). */
const retained = (c: FakeMqttClient) =>
  c.published.filter((p) => p.retain).map((p) => [p.topic, p.raw === "" ? "" : "…"]);

Deno.test("MqttPublisher clears the retained topics it published when retain is turned off", async () => {
  const { clients, publisher, settings } = setup({ mqtt_retain: true });
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  publisher.publish(status("bed", "heating"));
  publisher.publish(status("bed", "at_target"));
  publisher.configure({ ...settings, mqtt_retain: false });
  publisher.publish(status("bed", "at_target"));
  assert.equal(clients.length, 1, "no reconnection");
  assert.deepEqual(retained(clients[0]!), [
    ["localbench/temp_eta/status", "…"],
    ["localbench/temp_eta/bed", "…"],
    ["localbench/temp_eta/bed", "…"],
    ["localbench/temp_eta/bed/state_change", "…"],
    ["localbench/temp_eta/bed", ""],
    ["localbench/temp_eta/bed/state_change", ""],
  ]);
  assert.equal(etas(clients[0]!).at(-1)!.retain, false);
  assert.equal(publisher.status().cleared, 2);
  // Cleared once: turning retain off again finds nothing left.
  publisher.configure({ ...settings, mqtt_retain: true });
  publisher.configure({ ...settings, mqtt_retain: false });
  assert.equal(publisher.status().cleared, 2);
  await publisher.close();
});

Deno.test("MqttPublisher clears the old prefix's retained topics, status too, after a prefix change", async () => {
  const { clients, publisher, settings } = setup({ mqtt_retain: true, mqtt_topic_prefix: "old" });
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  publisher.publish(status("tool0", "heating"));
  publisher.configure({ ...settings, mqtt_topic_prefix: "new" });
  await flush();
  assert.deepEqual(retained(clients[0]!).at(-1), ["old/status", "…"], "offline on the way out");
  clients[1]!.acceptConnection();
  assert.deepEqual(retained(clients[1]!), [
    ["new/status", "…"],
    ["old/status", ""],
    ["old/tool0", ""],
  ]);
  await publisher.close();
});

Deno.test("MqttPublisher clears retained topics recorded before a restart", async () => {
  const dir = await Deno.makeTempDir();
  const statePath = `${dir}/mqtt_state.json`;
  const first = setup({ mqtt_retain: true }, { statePath });
  const a = first.publisher;
  a.configure(first.settings);
  await flush();
  first.clients[0]!.acceptConnection();
  a.publish(status("chamber", "heating"));
  await a.close();
  // The host restarts with retain off.
  const second = setup({}, { statePath });
  const b = second.publisher;
  b.configure(second.settings);
  await flush();
  second.clients[0]!.acceptConnection();
  assert.deepEqual(retained(second.clients[0]!), [
    ["localbench/temp_eta/status", "…"],
    ["localbench/temp_eta/chamber", ""],
  ]);
  await b.close();
  await Deno.remove(dir, { recursive: true });
});

/** A publisher saving its state at `statePath`, with its log lines. */
function persistent(statePath: string, settings: Record<string, unknown>) {
  const lines: string[] = [];
  const clock = new ManualClock();
  const { clients, factory } = fakeFactory();
  const publisher = new MqttPublisher({
    clock,
    factory,
    statePath,
    logger: createLogger("t", { sink: (_l, line) => lines.push(line.replace(/^.*?MQTT/, "MQTT")) }),
  });
  publisher.configure(validateSettings({ mqtt_enabled: true, mqtt_broker: "b", ...settings }));
  return { lines, clock, clients, publisher };
}

Deno.test("MqttPublisher saves its outage queue and sends it in order after a restart", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/mqtt_state.json`;
  const a = persistent(path, { mqtt_qos: 1 });
  // The state file is read and written on disk: waited for, not one turn (a loaded machine).
  await waitFor(() => a.clients.length > 0, "the first connection");
  a.clients[0]!.fail();
  for (let i = 0; i < 3; i++) a.publisher.publish({ ...status("bed", "heating"), eta_seconds: i });
  // Saved within a second, before any stop: a crash loses at most the last second.
  a.clock.advance(1000);
  const saved = await waitFor(async () => {
    const text = await Deno.readTextFile(path).catch(() => null);
    const state = text === null ? null : JSON.parse(text);
    return state?.queue?.length === 3 ? state : null;
  }, "the saved queue");
  assert.deepEqual([saved.broker, saved.prefix, saved.queue.length], [
    "mqtt://b:1883",
    "localbench/temp_eta",
    3,
  ]);
  a.publisher.publish({ ...status("bed", "heating"), eta_seconds: 3 });
  await a.publisher.close();

  const b = persistent(path, { mqtt_qos: 1 });
  await waitFor(() => b.publisher.status().queued > 0 && b.clients.length > 0, "the restore");
  assert.equal(b.publisher.status().queued, 4);
  b.publisher.publish({ ...status("bed", "heating"), eta_seconds: 4 });
  b.clients[0]!.acceptConnection();
  assert.deepEqual(etas(b.clients[0]!).map((p) => p.payload.eta_seconds), [0, 1, 2, 3, 4]);
  assert.ok(
    b.lines.includes("MQTT put back 4 messages queued before the restart"),
    b.lines.join("\n"),
  );
  await b.publisher.close();
  assert.deepEqual(JSON.parse(await Deno.readTextFile(path)).queue, [], "sent: nothing left");
  await Deno.remove(dir, { recursive: true });
});

/** A saved state with `n` queued messages for broker `b`. */
async function savedQueue(path: string, n: number, broker = "mqtt://b:1883") {
  const queue = Array.from({ length: n }, (_, i) => ({
    topic: "localbench/temp_eta/bed",
    payload: JSON.stringify({ eta_seconds: i }),
    qos: 1,
    retain: false,
  }));
  await Deno.writeTextFile(
    path,
    JSON.stringify({ broker, prefix: "localbench/temp_eta", queue, retained: [] }),
  );
}

Deno.test("MqttPublisher keeps a restored queue within its bound and counts and logs the rest", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/mqtt_state.json`;
  await savedQueue(path, QUEUE_LIMIT + 3);
  const p = persistent(path, { mqtt_qos: 2 });
  // The saved state is read from disk: on a loaded machine that takes more than one turn.
  await waitFor(() => p.publisher.status().queued > 0, "the restored queue");
  assert.deepEqual([p.publisher.status().queued, p.publisher.status().dropped], [QUEUE_LIMIT, 3]);
  assert.ok(
    p.lines.includes(
      `MQTT put back ${QUEUE_LIMIT} messages queued before the restart (3 dropped beyond the limit of ${QUEUE_LIMIT})`,
    ),
    p.lines.join("\n"),
  );
  p.clients[0]!.acceptConnection();
  assert.equal(etas(p.clients[0]!)[0]!.payload.eta_seconds, 3, "the oldest went");
  await p.publisher.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("MqttPublisher drops, counts and logs a queue saved for another broker", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/mqtt_state.json`;
  await savedQueue(path, 5, "mqtt://elsewhere:1883");
  const p = persistent(path, { mqtt_qos: 1 });
  await flush();
  assert.deepEqual([p.publisher.status().queued, p.publisher.status().dropped], [0, 5]);
  assert.ok(p.lines.some((l) => l.startsWith("MQTT dropped 5 messages queued before the restart")));
  await p.publisher.close();
  assert.deepEqual(JSON.parse(await Deno.readTextFile(path)).queue, []);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("MqttPublisher logs a full outage queue once per outage", async () => {
  const { lines, clients, publisher } = logged({ mqtt_qos: 1 });
  await flush();
  clients[0]!.fail();
  for (let i = 0; i < QUEUE_LIMIT + 10; i++) publisher.publish(status("bed", "heating"));
  const full = lines.filter((l) => l.includes("outage queue full"));
  assert.equal(full.length, 1);
  assert.match(
    full[0]!,
    /WARNING - MQTT outage queue full \(1000 messages\): the oldest are dropped/,
  );
  assert.equal(publisher.status().dropped, 10);
  await publisher.close();
});
