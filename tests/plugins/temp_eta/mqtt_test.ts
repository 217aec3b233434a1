import assert from "node:assert/strict";
import { createLogger } from "../../../lib/log.ts";
import { MqttPublisher } from "../../../plugins/temp_eta/mqtt.ts";
import { QUEUE_LIMIT } from "../../../plugins/temp_eta/mqtt_queue.ts";
import { validateSettings } from "../../../plugins/temp_eta/settings.ts";
import type { HeaterStatus } from "../../../plugins/temp_eta/status.ts";
import { fakeFactory, flush, ManualClock } from "./fakes.ts";

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

function setup(overrides: Record<string, unknown> = {}) {
  const clock = new ManualClock();
  const { clients, factory } = fakeFactory();
  const publisher = new MqttPublisher({ clock, logger, factory });
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
  assert.deepEqual(clients[0]!.published, [{
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
  const changes = clients[0]!.published.filter((p) => p.topic.endsWith("/state_change"));
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
  assert.equal(clients[0]!.published.length, 0);
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
  assert.deepEqual(clients[1]!.published.map((p) => [p.topic, p.payload.eta_seconds, p.qos]), [
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
  assert.equal(clients[0]!.published[0]!.payload.eta_seconds, 5, "the oldest five went");
  assert.equal(clients[0]!.published.length, QUEUE_LIMIT);
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
  assert.deepEqual(clients[1]!.published.map((p) => p.topic), ["localbench/temp_eta/chamber"]);
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

Deno.test("MqttPublisher reconnects when a connection setting changes, not for topic or QoS", async () => {
  const { clients, publisher, settings } = setup();
  publisher.configure(settings);
  await flush();
  clients[0]!.acceptConnection();
  publisher.configure({ ...settings, mqtt_qos: 2, mqtt_topic_prefix: "x/y" });
  await flush();
  assert.equal(clients.length, 1);
  publisher.publish(status("bed", "heating"));
  assert.equal(clients[0]!.published[0]!.topic, "x/y/bed");
  assert.equal(clients[0]!.published[0]!.qos, 2);
  publisher.configure({ ...settings, mqtt_port: 1999 });
  await flush();
  assert.equal(clients.length, 2);
  assert.ok(clients[0]!.ended);
  assert.equal(clients[1]!.url, "mqtt://127.0.0.1:1999");
  publisher.configure({ ...settings, mqtt_enabled: false });
  assert.ok(clients[1]!.ended);
  assert.deepEqual(publisher.status(), {
    enabled: false,
    connected: false,
    broker: null,
    last_error: null,
    published: 1,
    queued: 0,
    dropped: 0,
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
