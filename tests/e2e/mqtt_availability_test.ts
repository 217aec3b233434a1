/**
 * The MQTT availability topic, the clearing of retained topics and the outage queue across a
 * restart, against a real mosquitto broker started by the tests on a loopback port.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { systemClock } from "../../lib/clock.ts";
import { createLogger } from "../../lib/log.ts";
import { MqttPublisher } from "../../plugins/temp_eta/mqtt.ts";
import { validateSettings } from "../../plugins/temp_eta/settings.ts";
import type { HeaterStatus } from "../../plugins/temp_eta/status.ts";
import { TempEtaService } from "../../plugins/temp_eta/service.ts";
import { fakeContext } from "../plugins/temp_eta/fakes.ts";
import { tempEnv, waitFor } from "../_helpers.ts";
import { retainedOn, startMosquitto, subscribe } from "../plugins/temp_eta/mosquitto.ts";

const logger = createLogger("test", { sink: () => {} });
// mqtt.js keeps internal timers and sockets alive a little after end(); the tests close every
// client and broker themselves.
const opts = { sanitizeOps: false, sanitizeResources: false };

function status(heater: string, state: HeaterStatus["state"], eta: number): HeaterStatus {
  return {
    heater,
    eta_seconds: eta,
    eta_kind: "heating",
    state,
    target: 60,
    actual: 40,
    cooling_target: 40,
    rate: 0.5,
    timestamp: 1_700_000_000,
    progress: 50,
    method: "linear",
  };
}

const base = (port: number) => ({ mqtt_enabled: true, mqtt_broker: "127.0.0.1", mqtt_port: port });

function publisher(settings: Record<string, unknown>, statePath: string | null = null) {
  const p = new MqttPublisher({
    clock: systemClock,
    logger,
    backoffInitialMs: 100,
    backoffMaxMs: 500,
    statePath,
  });
  p.configure(validateSettings(settings));
  return p;
}

Deno.test({
  name: "MQTT marks {prefix}/status online, retained, and a clean stop leaves offline",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    const url = `mqtt://127.0.0.1:${broker.port}`;
    await using sub = await subscribe(url, "avail/#");
    const p = publisher({ ...base(broker.port), mqtt_topic_prefix: "avail" });
    await waitFor(() => sub.messages.some((m) => m.text === "online"), "online");
    assert.deepEqual(await retainedOn(url, "avail/#"), [["avail/status", "online"]]);
    await p.close();
    await waitFor(() => sub.messages.some((m) => m.text === "offline"), "offline");
    assert.deepEqual(await retainedOn(url, "avail/#"), [["avail/status", "offline"]]);
  },
});

Deno.test({
  name: "MQTT's last will sets {prefix}/status offline when the host's process is killed",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    const url = `mqtt://127.0.0.1:${broker.port}`;
    await using sub = await subscribe(url, "crash/#");
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        join(import.meta.dirname!, "_mqtt_crash_child.ts"),
        String(broker.port),
        "crash",
      ],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await reader.read()).value?.trim(), "connected");
    await waitFor(() => sub.messages.some((m) => m.text === "online"), "online");
    child.kill("SIGKILL"); // no clean disconnect: only the broker's will can tell
    await child.status;
    reader.releaseLock();
    await child.stdout.cancel().catch(() => {});
    await waitFor(() => sub.messages.some((m) => m.text === "offline"), "the last will");
    assert.deepEqual(sub.messages.map((m) => [m.topic, m.text]), [
      ["crash/status", "online"],
      ["crash/status", "offline"],
    ]);
    assert.deepEqual(await retainedOn(url, "crash/#"), [["crash/status", "offline"]]);
  },
});

Deno.test({
  name: "MQTT clears the retained topics of the old prefix when the prefix changes",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    const url = `mqtt://127.0.0.1:${broker.port}`;
    const settings = { ...base(broker.port), mqtt_topic_prefix: "old", mqtt_retain: true };
    const p = publisher({ ...settings, mqtt_qos: 1 });
    await waitFor(() => p.status().connected, "connection");
    p.publish(status("tool0", "heating", 30));
    p.publish(status("tool0", "at_target", 0));
    await waitFor(() => p.status().published === 3, "publications acknowledged");
    assert.deepEqual((await retainedOn(url, "old/#")).map(([t]) => t).sort(), [
      "old/status",
      "old/tool0",
      "old/tool0/state_change",
    ]);
    p.configure(validateSettings({ ...settings, mqtt_topic_prefix: "new" }));
    await waitFor(() => p.status().cleared === 3, "the old topics cleared");
    p.publish(status("tool0", "at_target", 0));
    await waitFor(() => p.status().published === 4, "a publication under the new prefix");
    assert.deepEqual(await retainedOn(url, "old/#"), []);
    assert.deepEqual((await retainedOn(url, "new/#")).map(([t]) => t).sort(), [
      "new/status",
      "new/tool0",
    ]);
    await p.close();
  },
});

Deno.test({
  name: "MQTT clears its retained ETAs when retain is turned off, also across a restart",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    await using data = await tempEnv();
    const state = join(data.root, "mqtt_state.json");
    const url = `mqtt://127.0.0.1:${broker.port}`;
    const settings = { ...base(broker.port), mqtt_topic_prefix: "ret", mqtt_qos: 1 };
    const a = publisher({ ...settings, mqtt_retain: true }, state);
    await waitFor(() => a.status().connected, "connection");
    a.publish(status("bed", "heating", 30));
    a.publish(status("chamber", "heating", 300));
    await waitFor(() => a.status().published === 2, "publications acknowledged");
    await a.close();
    assert.equal((await retainedOn(url, "ret/#")).length, 3);
    // The host starts again with retain off.
    const b = publisher({ ...settings, mqtt_retain: false }, state);
    await waitFor(() => b.status().cleared === 2, "the retained ETAs cleared");
    b.publish(status("bed", "heating", 20));
    await waitFor(() => b.status().published === 1, "a publication without retain");
    assert.deepEqual(await retainedOn(url, "ret/#"), [["ret/status", "online"]]);
    await b.close();
  },
});

Deno.test({
  name: "MQTT's outage queue survives a restart of the host and goes out when the broker is back",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    await using data = await tempEnv();
    const state = join(data.root, "mqtt_state.json");
    const url = `mqtt://127.0.0.1:${broker.port}`;
    const settings = { ...base(broker.port), mqtt_topic_prefix: "q", mqtt_qos: 1 };
    const a = publisher(settings, state);
    await waitFor(() => a.status().connected, "connection");
    await broker.stop();
    await waitFor(() => !a.status().connected, "the loss noticed");
    for (let eta = 5; eta > 0; eta--) a.publish(status("tool0", "heating", eta));
    assert.equal(a.status().queued, 5);
    await a.close(); // the host stops while the broker is away
    await broker.restart();
    await using sub = await subscribe(url, "q/#");
    const b = publisher(settings, state);
    await waitFor(() => sub.etas.length === 5, "the queued messages after the restart");
    assert.deepEqual(sub.etas.map((m) => m.payload.eta_seconds), [5, 4, 3, 2, 1]);
    assert.equal(b.status().queued, 0);
    await b.close();
  },
});

Deno.test({
  name:
    "the service keeps its outage queue in the plugin's data folder across a restart of the host",
  ...opts,
  fn: async () => {
    await using broker = await startMosquitto();
    await using data = await tempEnv();
    const settings = { ...base(broker.port), mqtt_qos: 1, mqtt_topic_prefix: "svc" };
    const start = () => {
      const f = fakeContext(settings);
      f.ctx.dataDir = data.root;
      const service = new TempEtaService(f.ctx, { backoffInitialMs: 1000, backoffMaxMs: 2000 });
      service.start();
      return { f, service };
    };
    const a = start();
    await waitFor(() => a.service.status().mqtt_connected, "connection");
    await broker.stop();
    await waitFor(() => !a.service.status().mqtt_connected, "the loss noticed");
    for (let i = 1; i <= 20; i++) {
      a.f.printer.emit(a.f.printer.time + 500, { tool0: { actual: 20 + i, target: 200 } });
      a.f.clock.advance(500);
    }
    const queued = a.service.status().mqtt.queued;
    assert.ok(queued >= 5, `queued ${queued}`);
    await a.service.stop();
    const saved = JSON.parse(await Deno.readTextFile(join(data.root, "mqtt_state.json")));
    assert.equal(saved.queue.length, queued);

    await broker.restart();
    await using sub = await subscribe(`mqtt://127.0.0.1:${broker.port}`, "svc/#");
    const b = start();
    await waitFor(() => sub.etas.length >= queued, "the messages queued before the restart");
    assert.ok(b.f.logs.some((l) => l.includes(`MQTT put back ${queued} messages`)));
    const stamps = sub.etas.filter((m) => m.topic === "svc/tool0").map((m) => m.payload.timestamp);
    assert.deepEqual(stamps, [...stamps].sort(), "in order");
    await b.service.stop();
  },
});
