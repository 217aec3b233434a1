/**
 * MQTT publishing against a real mosquitto broker started by the tests on a loopback port.
 */
import assert from "node:assert/strict";
import { systemClock } from "../../lib/clock.ts";
import { createLogger } from "../../lib/log.ts";
import { MqttPublisher } from "../../plugins/temp_eta/mqtt.ts";
import { validateSettings } from "../../plugins/temp_eta/settings.ts";
import type { HeaterStatus } from "../../plugins/temp_eta/status.ts";
import { TempEtaService } from "../../plugins/temp_eta/service.ts";
import { apiApp } from "../../plugins/temp_eta/api.ts";
import { type FakeContext, fakeContext } from "../plugins/temp_eta/fakes.ts";
import { tempEnv, waitFor } from "../_helpers.ts";
import { startMosquitto, subscribe } from "../plugins/temp_eta/mosquitto.ts";

const logger = createLogger("test", { sink: () => {} });
// mqtt.js keeps internal timers and sockets alive a little after end(); the tests close every
// client and broker themselves.
const opts = { sanitizeOps: false, sanitizeResources: false };

function status(heater: string, state: HeaterStatus["state"], eta: number | null): HeaterStatus {
  return {
    heater,
    eta_seconds: eta,
    eta_kind: eta === null ? null : "heating",
    state,
    target: 60,
    actual: 40,
    cooling_target: 40,
    rate: 0.5,
    timestamp: 1_700_000_000.5,
    progress: 50,
    method: "linear",
  };
}

function publisher(settings: Record<string, unknown>) {
  const p = new MqttPublisher({
    clock: systemClock,
    logger,
    backoffInitialMs: 100,
    backoffMaxMs: 500,
  });
  p.configure(validateSettings({ mqtt_enabled: true, mqtt_broker: "127.0.0.1", ...settings }));
  return p;
}

Deno.test({
  name: "MQTT publishes each heater's payload to {prefix}/{heater} with QoS 1 and 2",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    const url = `mqtt://127.0.0.1:${broker.port}`;
    await using sub = await subscribe(url, "test/eta/#");
    for (const qos of [1, 2] as const) {
      const p = publisher({ mqtt_port: broker.port, mqtt_topic_prefix: "test/eta", mqtt_qos: qos });
      await waitFor(() => p.status().connected, "connection");
      p.publish(status("tool0", "heating", 30));
      p.publish(status("bed", "heating", 90));
      await waitFor(() => sub.etas.filter((m) => m.qos === qos).length === 2, `QoS ${qos}`);
      await p.close();
    }
    assert.deepEqual(sub.etas.map((m) => [m.topic, m.qos, m.retain]), [
      ["test/eta/tool0", 1, false],
      ["test/eta/bed", 1, false],
      ["test/eta/tool0", 2, false],
      ["test/eta/bed", 2, false],
    ]);
    assert.deepEqual(sub.etas[1]!.payload, {
      heater: "bed",
      eta_seconds: 90,
      eta_kind: "heating",
      state: "heating",
      target: 60,
      actual: 40,
      cooling_target: 40,
      rate: 0.5,
      timestamp: 1_700_000_000.5,
    });
  },
});

Deno.test({
  name: "MQTT retain keeps the last message on the broker for later subscribers",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    const url = `mqtt://127.0.0.1:${broker.port}`;
    const p = publisher({ mqtt_port: broker.port, mqtt_retain: true, mqtt_qos: 1 });
    await waitFor(() => p.status().connected, "connection");
    p.publish(status("chamber", "heating", 300));
    await waitFor(() => p.status().published === 1, "publish acknowledged");
    await p.close();
    await using late = await subscribe(url, "localbench/temp_eta/#");
    await waitFor(() => late.etas.length === 1, "retained message");
    assert.equal(late.etas[0]!.topic, "localbench/temp_eta/chamber");
    assert.equal(late.etas[0]!.retain, true);
    assert.equal(late.etas[0]!.payload.eta_seconds, 300);
  },
});

Deno.test({
  name: "MQTT logs in with username and password, and reports a refused login",
  ...opts,
  fn: async () => {
    const auth = { username: "eta", password: "s3cret" };
    await using broker = await startMosquitto({ auth });
    const url = `mqtt://127.0.0.1:${broker.port}`;
    await using sub = await subscribe(url, "localbench/temp_eta/#", auth);
    const good = publisher({
      mqtt_port: broker.port,
      mqtt_username: "eta",
      mqtt_password: "s3cret",
    });
    await waitFor(() => good.status().connected, "authenticated connection");
    good.publish(status("tool0", "heating", 10));
    await waitFor(() => sub.etas.length === 1, "message");
    await good.close();
    const bad = publisher({ mqtt_port: broker.port, mqtt_username: "eta", mqtt_password: "wrong" });
    await waitFor(() => bad.status().last_error !== null, "refusal");
    assert.equal(bad.status().connected, false);
    assert.match(bad.status().last_error!, /not authori[sz]ed|bad user/i);
    await bad.close();
  },
});

Deno.test({
  name: "MQTT over TLS verifies the broker with a CA file, or connects insecurely when asked",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto({ tls: true });
    const url = `mqtts://127.0.0.1:${broker.port}`;
    const ca = await Deno.readTextFile(broker.caFile!);
    await using sub = await subscribe(url, "localbench/temp_eta/#", {
      ca,
      rejectUnauthorized: true,
    });
    const tls = { mqtt_port: broker.port, mqtt_tls_enabled: true };
    const verified = publisher({ ...tls, mqtt_ca_cert: broker.caFile });
    await waitFor(() => verified.status().connected, "verified TLS connection");
    assert.equal(verified.status().broker, url);
    verified.publish(status("tool0", "heating", 12));
    await waitFor(() => sub.etas.length === 1, "message over TLS");
    await verified.close();
    const insecure = publisher({ ...tls, mqtt_tls_insecure: true });
    await waitFor(() => insecure.status().connected, "insecure TLS connection");
    await insecure.close();
    const unverified = publisher(tls);
    await waitFor(() => unverified.status().last_error !== null, "certificate rejection");
    assert.equal(unverified.status().connected, false);
    await unverified.close();
  },
});

Deno.test({
  name: "MQTT recovers after the broker restarts, without blocking publishers meanwhile",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    const url = `mqtt://127.0.0.1:${broker.port}`;
    const p = publisher({ mqtt_port: broker.port });
    await waitFor(() => p.status().connected, "connection");
    await broker.stop();
    await waitFor(() => !p.status().connected, "disconnect");
    p.publish(status("tool0", "heating", 5));
    assert.equal(p.status().dropped, 1);
    await broker.restart();
    await using sub = await subscribe(url, "localbench/temp_eta/#");
    await waitFor(() => p.status().connected, "reconnection", 15_000);
    p.publish(status("tool0", "heating", 4));
    await waitFor(() => sub.etas.length === 1, "message after restart");
    assert.equal(sub.etas[0]!.payload.eta_seconds, 4);
    await p.close();
  },
});

Deno.test({
  name: "the service publishes its heaters to mosquitto and reports the connection",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    await using sub = await subscribe(`mqtt://127.0.0.1:${broker.port}`, "localbench/temp_eta/#");
    const f = fakeContext({ mqtt_enabled: true, mqtt_broker: "127.0.0.1", mqtt_port: broker.port });
    await using data = await tempEnv();
    f.ctx.dataDir = data.root; // the plugin's data folder (the MQTT state)
    const service = new TempEtaService(f.ctx);
    service.start();
    await waitFor(() => service.status().mqtt_connected, "service connection");
    // 40 s of heating: the estimator names a first ETA once the readings, not its prior, say it.
    for (let i = 1; i <= 80; i++) {
      f.printer.emit(f.printer.time + 500, {
        tool0: { actual: 20 + i, target: 200 },
        bed: { actual: 20 + i / 4, target: 60 },
      });
      f.clock.advance(500);
    }
    await waitFor(() => new Set(sub.etas.map((m) => m.topic)).size >= 2, "both heaters");
    const topics = new Set(sub.etas.map((m) => m.topic));
    assert.ok(topics.has("localbench/temp_eta/tool0") && topics.has("localbench/temp_eta/bed"));
    // Messages arrive in order: the newest tool0 message, once all are in, says heating.
    await waitFor(
      () => sub.etas.filter((m) => m.topic.endsWith("/tool0")).at(-1)?.payload.state === "heating",
      "tool0 heating",
    );
    await service.stop();
    assert.equal(service.status().mqtt_connected, false);
  },
});

/** Heats tool0 and the bed for `seconds` (readings and computes every 500 ms). */
function heat(f: FakeContext, seconds: number, from: number) {
  for (let i = 1; i <= seconds * 2; i++) {
    const t = from + i / 2;
    f.printer.emit(f.printer.time + 500, {
      tool0: { actual: 20 + 2 * t, target: 200 },
      bed: { actual: 20 + t / 2, target: 60 },
    });
    f.clock.advance(500);
  }
}

/** Lets the publisher retry on its (manual) clock until `done`, with real time for the sockets. */
async function retryUntil(f: FakeContext, done: () => boolean, what: string) {
  for (let i = 0; i < 100 && !done(); i++) {
    f.clock.advance(1000);
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(done(), `timed out waiting for ${what}`);
}

const mqttLines = (f: FakeContext) =>
  f.logs.filter((l) => l.includes("MQTT")).map((l) => l.replace(/^.* - (\w+) - /, "$1 "));

Deno.test({
  name:
    "the service logs a lost broker once and its return once, and delivers what it queued meanwhile (QoS 1)",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto({ persistence: true });
    const url = `mqtt://127.0.0.1:${broker.port}`;
    // A persistent QoS subscription that goes away: the broker keeps its messages across restarts.
    const session = { clientId: "temp-eta-test-listener", clean: false };
    await (await subscribe(url, "localbench/temp_eta/#", session))[Symbol.asyncDispose]();
    const f = fakeContext({
      mqtt_enabled: true,
      mqtt_broker: "127.0.0.1",
      mqtt_port: broker.port,
      mqtt_qos: 1,
    });
    await using data = await tempEnv();
    f.ctx.dataDir = data.root; // the plugin's data folder (the MQTT state)
    const service = new TempEtaService(f.ctx, { backoffInitialMs: 1000, backoffMaxMs: 2000 });
    service.start();
    await waitFor(() => service.status().mqtt_connected, "connection");
    heat(f, 5, 0);
    await waitFor(() => service.status().mqtt.published >= 10, "publications acknowledged");
    const before = service.status().mqtt.published;

    await broker.stop();
    await waitFor(() => !service.status().mqtt_connected, "the loss noticed");
    const lostAt = f.clock.now() / 1000;
    // Ten seconds of readings while the broker is away, and several failed retries.
    heat(f, 10, 5);
    for (let i = 0; i < 5; i++) {
      f.clock.advance(2000);
      await new Promise((r) => setTimeout(r, 100));
    }
    const queued = service.status().mqtt.queued;
    assert.ok(queued >= 20, `queued ${queued}`);
    assert.equal(service.status().mqtt.dropped, 0);

    await broker.restart();
    await retryUntil(f, () => service.status().mqtt_connected, "the reconnection");
    const backAt = f.clock.now() / 1000;
    await waitFor(() => service.status().mqtt.queued === 0, "the queue sent");
    await waitFor(
      () => service.status().mqtt.published >= before + queued,
      "the queued messages acknowledged",
    );
    const body = await (await apiApp(service).request("/")).json();
    assert.equal(body.mqtt.queued, 0);
    assert.equal(body.mqtt.dropped, 0);
    const lines = mqttLines(f);
    assert.equal(lines.length, 3, lines.join("\n"));
    assert.match(lines[0]!, /^INFO MQTT connected to mqtt:\/\/127\.0\.0\.1:\d+$/);
    assert.match(
      lines[1]!,
      /^WARNING MQTT connection to .* lost \(.*\); reconnecting, messages are queued/,
    );
    const restored =
      /^INFO MQTT connection to .* restored after \d+ s; (\d+) queued messages sent, 0 dropped$/
        .exec(lines[2]!);
    assert.ok(restored, lines[2]!);
    const sent = Number(restored[1]);
    assert.ok(sent >= queued, `sent ${sent} of at least ${queued}`);

    // The listener comes back and finds every message of the outage, in order.
    await using back = await subscribe(url, "localbench/temp_eta/#", session);
    const during = () =>
      back.etas.filter((m) => {
        const t = m.payload.timestamp as number | undefined;
        return t !== undefined && t > lostAt && t < backAt;
      });
    await waitFor(() => during().length >= sent, `${sent} messages of the outage`, 15_000);
    const stamps = back.etas.filter((m) => m.topic === "localbench/temp_eta/tool0")
      .map((m) => m.payload.timestamp as number);
    assert.deepEqual(stamps, [...stamps].sort((a, b) => a - b), "in order");
    await service.stop();
  },
});

Deno.test({
  name: "with QoS 0 the service drops what it publishes while the broker is away and counts it",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    const f = fakeContext({ mqtt_enabled: true, mqtt_broker: "127.0.0.1", mqtt_port: broker.port });
    await using data = await tempEnv();
    f.ctx.dataDir = data.root; // the plugin's data folder (the MQTT state)
    const service = new TempEtaService(f.ctx, { backoffInitialMs: 1000, backoffMaxMs: 2000 });
    service.start();
    await waitFor(() => service.status().mqtt_connected, "connection");
    await broker.stop();
    await waitFor(() => !service.status().mqtt_connected, "the loss noticed");
    heat(f, 5, 0);
    const dropped = service.status().mqtt.dropped;
    assert.ok(dropped >= 10, `dropped ${dropped}`);
    const body = await (await apiApp(service).request("/")).json();
    assert.deepEqual([body.mqtt.queued, body.mqtt.dropped], [0, dropped]);
    await broker.restart();
    await retryUntil(f, () => service.status().mqtt_connected, "the reconnection");
    const lines = mqttLines(f);
    assert.equal(lines.length, 3, lines.join("\n"));
    assert.match(lines[1]!, /lost \(.*\); reconnecting, QoS 0 messages are dropped$/);
    // Ticks went on while it retried: the line counts every drop of the outage.
    const total = service.status().mqtt.dropped;
    assert.ok(total >= dropped);
    assert.match(
      lines[2]!,
      new RegExp(`restored after \\d+ s; 0 queued messages sent, ${total} dropped$`),
    );
    await service.stop();
  },
});
