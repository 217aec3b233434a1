/**
 * The plugin host across its real life cycle, under the permissions of `deno task host` (the
 * launcher and the scoped host it supervises), against the hub simulator and a real mosquitto:
 * configure every plugin, change hub and broker addresses at run time (the launcher restarts the
 * host under the wider scope by itself, outputs kept), check an address before saving it, stop
 * and start again with the same behaviour, and a version 1 file that publishes on its first start.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startHubSimulator } from "../doubles/powerhub_sim.ts";
import { startMosquitto, subscribe } from "../plugins/temp_eta/mosquitto.ts";
import { startScopedHost } from "./_scoped_host.ts";

const BP = "/api/plugin/branchplus";
const ETA = "/api/plugin/temp_eta";

function lineOf(level: string, message: string): string {
  return `2026-01-01 12:00:00,000 - test.app - ${level} - ${message}\n`;
}

Deno.test({
  name:
    "configure every plugin, change hub and broker at run time, restart: the scoped host behaves the same and keeps the outputs",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_life_" });
    const hubA = await startHubSimulator();
    const hubB = await startHubSimulator();
    await using brokerA = await startMosquitto();
    await using brokerB = await startMosquitto();
    await using subA = await subscribe(`mqtt://127.0.0.1:${brokerA.port}`, "life/#");
    await using subB = await subscribe(`mqtt://127.0.0.1:${brokerB.port}`, "life/#");
    let h = await startScopedHost({ dataDir });
    try {
      const logDir = join(dataDir, "host", "logs");
      await Deno.writeTextFile(join(logDir, "app.log"), lineOf("INFO", "started"));

      // 1. Settings that need no wider scope apply at once, without a restart.
      const plain = await h.call("POST", "/api/settings", {
        plugins: {
          host_uptime: { poll_interval_seconds: 9 },
          logmonitor: { stream_poll_interval_s: 1, alerts_monitored_logs: ["app.log"] },
        },
      });
      assert.equal(plain.status, 200);
      assert.equal(plain.body.reapplying, undefined);
      assert.equal((await h.call("GET", "/api/plugin/host_uptime")).body.poll_interval_seconds, 9);

      // A live stream and an alert before the first planned restart.
      const streamed = await h.call("POST", "/plugin/logmonitor/stream/start", { file: "app.log" });
      assert.equal(streamed.body.status, "started");
      await Deno.writeTextFile(join(logDir, "app.log"), lineOf("ERROR", "before the restart"), {
        append: true,
      });
      const alerts =
        async () => ((await h.call("GET", "/plugin/logmonitor/alert-history")).body.history as {
          message: string;
        }[]);
      await h.until("the alert before the restart", async () => (await alerts()).length === 1);

      // 2. A hub address: the host says it re-applies (response and push), the launcher restarts
      //    it under the new scope, and the hub connects within seconds.
      const ws = await h.push();
      const t0 = Date.now();
      const hub = await h.call("POST", "/api/settings", {
        plugins: {
          branchplus: {
            host: "127.0.0.1",
            port: hubA.port,
            min_switch_interval: 0,
            channels: [{ kind: "usb", id: 1, mode: "manual", failsafe: "hold" }],
          },
        },
      });
      assert.equal(hub.status, 200);
      assert.equal(hub.body.reapplying, true);
      assert.deepEqual((hub.body.needs as { net: string[] }).net, [`127.0.0.1:${hubA.port}`]);
      await h.until(
        "the reapplying push",
        () =>
          Promise.resolve(ws.messages.some((m) =>
            JSON.stringify(m).includes('"plugin":"host"') &&
            JSON.stringify(m).includes("reapplying")
          )),
      );
      await ws.closed;
      await h.until("the hub to connect", async () => (await h.call("GET", BP)).body.connected);
      const hubSeconds = (Date.now() - t0) / 1000;
      assert.ok(hubSeconds < 15, `connected after ${hubSeconds} s`);
      assert.match(h.stdout(), /Plugin host re-applied its settings, listening on/);

      // The log monitor carried on: the same alert history, the stream still running.
      assert.deepEqual((await alerts()).map((a) => a.message), ["before the restart"]);
      const tail = await h.push();
      await Deno.writeTextFile(join(logDir, "app.log"), lineOf("ERROR", "after the restart"), {
        append: true,
      });
      await h.until(
        "the streamed line after the restart",
        () =>
          Promise.resolve(tail.messages.some((m) =>
            JSON.stringify(m).includes("log_lines") &&
            JSON.stringify(m).includes("after the restart")
          )),
      );
      await h.until("the second alert", async () => (await alerts()).length === 2);
      await tail.close();

      // A manual-on channel, then a broker address (another restart): the output stays on.
      const on = await h.call("POST", BP, { command: "set_channel", kind: "usb", id: 1, on: true });
      assert.deepEqual(on.body, { ok: true });
      await h.until("usb 1 on", () => Promise.resolve(hubA.channels.usb?.["1"] === 1));
      const sentBefore = hubA.commands.length;
      const mqtt = await h.call("POST", "/api/settings", {
        plugins: {
          temp_eta: {
            algorithm: "exponential",
            mqtt_enabled: true,
            mqtt_broker: "127.0.0.1",
            mqtt_port: brokerA.port,
            mqtt_topic_prefix: "life",
          },
        },
      });
      assert.equal(mqtt.body.reapplying, true);
      await h.until("MQTT to connect", async () => (await h.call("GET", ETA)).body.mqtt_connected);
      assert.equal((await h.call("GET", ETA)).body.algorithm, "exponential");
      await h.call("POST", "/api/printer/tool", { command: "target", targets: { tool0: 60 } });
      await h.until("a publication on broker A", () => Promise.resolve(subA.etas.length > 0));
      assert.deepEqual(
        hubA.commands.slice(sentBefore).filter((c) => c.on === 0),
        [],
        "the planned restart switched nothing off",
      );
      assert.equal(hubA.channels.usb?.["1"], 1);
      await h.until("the hub back", async () => (await h.call("GET", BP)).body.connected);

      // 3. test_connection on an address typed but not saved: plain results, never Deno's text.
      const probe = await h.call("POST", BP, {
        command: "test_connection",
        host: "127.0.0.1",
        port: hubB.port,
      });
      assert.deepEqual(probe.body, { ok: true, channels: 10 });
      const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const closedPort = (closed.addr as Deno.NetAddr).port;
      closed.close();
      const refused = await h.call("POST", BP, {
        command: "test_connection",
        host: "127.0.0.1",
        port: closedPort,
      });
      assert.equal(refused.body.ok, false);
      assert.equal(refused.body.reason, "refused");
      const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const held: Deno.Conn[] = [];
      (async () => {
        for await (const conn of silent) held.push(conn);
      })().catch(() => {});
      const timeout = await h.call("POST", BP, {
        command: "test_connection",
        host: "127.0.0.1",
        port: (silent.addr as Deno.NetAddr).port,
      });
      silent.close();
      for (const c of held) c.close();
      assert.equal(timeout.body.reason, "timeout");
      for (const r of [probe, refused, timeout]) {
        assert.doesNotMatch(JSON.stringify(r.body), /allow-net|Requires net|NotCapable/);
      }

      // 4. Both addresses changed at run time: connected to the new ones within seconds.
      const t1 = Date.now();
      const moved = await h.call("POST", "/api/settings", {
        plugins: {
          branchplus: { port: hubB.port },
          temp_eta: { mqtt_port: brokerB.port },
        },
      });
      assert.equal(moved.body.reapplying, true);
      await h.until("hub B", () => Promise.resolve(hubB.clients > 0));
      await h.until("broker B", async () => (await h.call("GET", ETA)).body.mqtt_connected);
      await h.until("a publication on broker B", () => Promise.resolve(subB.etas.length > 0));
      const movedSeconds = (Date.now() - t1) / 1000;
      assert.ok(movedSeconds < 20, `moved after ${movedSeconds} s`);
      // usb 1 is manual-on: enforced on the new hub too.
      await h.until("usb 1 on hub B", () => Promise.resolve(hubB.channels.usb?.["1"] === 1));

      // 5. A real stop and a start again: the same behaviour from the stored settings.
      const stopped = await h.stop();
      assert.equal(stopped.code, 0);
      assert.equal(hubB.channels.usb?.["1"], 1, "failsafe hold kept usb 1");
      const key = h.key;
      subB.messages.length = 0;
      h = await startScopedHost({ dataDir, key });
      assert.doesNotMatch(h.stderr(), /Unknown plugin|Invalid stored settings/);
      await h.until(
        "the hub after the start",
        async () => (await h.call("GET", BP)).body.connected,
      );
      const state = (await h.call("GET", BP)).body as { channels: { usb: Record<string, number> } };
      assert.equal(state.channels.usb["1"], 1);
      const eta = (await h.call("GET", ETA)).body;
      assert.equal(eta.algorithm, "exponential");
      await h.until(
        "MQTT after the start",
        async () => (await h.call("GET", ETA)).body.mqtt_connected,
      );
      await h.call("POST", "/api/printer/tool", { command: "target", targets: { tool0: 70 } });
      await h.until("publishing after the start", () => Promise.resolve(subB.etas.length > 0));
      assert.equal((await h.call("GET", "/api/plugin/host_uptime")).body.poll_interval_seconds, 9);
      const ws2 = await h.push();
      const stream = await h.call("POST", "/plugin/logmonitor/stream/start", { file: "app.log" });
      assert.equal(stream.body.status, "started");
      await Deno.writeTextFile(join(logDir, "app.log"), lineOf("ERROR", "heater fault"), {
        append: true,
      });
      await h.until(
        "the alert of the monitored log",
        async () =>
          ((await h.call("GET", "/plugin/logmonitor/alert-history")).body.history as unknown[])
            .length > 0,
        10_000,
      );
      await h.until(
        "the streamed line",
        () => Promise.resolve(ws2.messages.some((m) => JSON.stringify(m).includes("heater fault"))),
      );
      await ws2.close();
      const log = await Deno.readTextFile(join(logDir, "host.log"));
      assert.doesNotMatch(log, /Requires net access|--allow-net|Unknown plugin/);
    } finally {
      await h.stop().catch(() => {});
      await hubA.close();
      await hubB.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "a version 1 temp_eta section is migrated before the scope is derived and MQTT publishes on the first start",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_life_v1_" });
    await using broker = await startMosquitto();
    await using sub = await subscribe(`mqtt://127.0.0.1:${broker.port}`, "v1shop/#");
    await Deno.mkdir(join(dataDir, "host"), { recursive: true });
    await Deno.writeTextFile(
      join(dataDir, "host", "config.yaml"),
      [
        "plugins:",
        "  temp_eta:",
        "    mqtt_enabled: true",
        "    mqtt_broker_host: 127.0.0.1",
        `    mqtt_broker_port: ${broker.port}`,
        "    mqtt_base_topic: v1shop",
        "",
      ].join("\n"),
    );
    const h = await startScopedHost({ dataDir });
    try {
      await h.until(
        "MQTT on the first start",
        async () => (await h.call("GET", ETA)).body.mqtt_connected,
      );
      await h.call("POST", "/api/printer/bed", { command: "target", target: 50 });
      await h.until("a publication", () => Promise.resolve(sub.etas.length > 0));
      assert.match(sub.etas[0]!.topic, /^v1shop\//);
      const stored = await Deno.readTextFile(join(dataDir, "host", "config.yaml"));
      assert.match(stored, /_version: 2/);
      assert.match(stored, /mqtt_broker: 127\.0\.0\.1/);
      assert.doesNotMatch(stored, /mqtt_broker_host/);
      assert.doesNotMatch(h.stdout(), /re-applied/, "no restart was needed");
    } finally {
      await h.stop();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "an MQTT CA file named through a link outside the host's folders is granted by its real path, that file alone",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_life_ca_" });
    const elsewhere = await Deno.makeTempDir({ prefix: "lb_life_links_" });
    await using broker = await startMosquitto({ tls: true });
    const link = join(elsewhere, "broker-ca.pem");
    await Deno.symlink(broker.caFile!, link);
    const h = await startScopedHost({ dataDir });
    try {
      const saved = await h.call("POST", "/api/settings", {
        plugins: {
          temp_eta: {
            mqtt_enabled: true,
            mqtt_broker: "127.0.0.1",
            mqtt_port: broker.port,
            mqtt_tls_enabled: true,
            mqtt_ca_cert: link,
          },
        },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(saved.body.reapplying, true);
      const needs = saved.body.needs as { read: string[] };
      assert.deepEqual(needs.read, [link]);
      await h.until(
        "MQTT over TLS",
        async () => (await h.call("GET", ETA)).body.mqtt_connected,
        20_000,
      );
      const status = (await h.call("GET", ETA)).body.mqtt as { last_error: string | null };
      assert.equal(status.last_error, null);
      // The scope grants the real file, not the link's folder nor the broker's other files.
      const log = await Deno.readTextFile(join(dataDir, "host", "logs", "host.log"));
      assert.doesNotMatch(log, /Cannot read 'mqtt_ca_cert'/);
    } finally {
      await h.stop();
      await Deno.remove(dataDir, { recursive: true });
      await Deno.remove(elsewhere, { recursive: true });
    }
  },
});

Deno.test({
  name: "losing its launcher stops the host as a real stop: the failsafe applies",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "lb_life_orphan_" });
    const hub = await startHubSimulator();
    await Deno.mkdir(join(dataDir, "host"), { recursive: true });
    await Deno.writeTextFile(
      join(dataDir, "host", "config.yaml"),
      [
        "plugins:",
        "  branchplus:",
        "    _version: 1",
        "    host: 127.0.0.1",
        `    port: ${hub.port}`,
        "    channels:",
        "      - { kind: usb, id: 1, mode: manual, manual_on: true, failsafe: 'off' }",
        "",
      ].join("\n"),
    );
    const h = await startScopedHost({ dataDir });
    try {
      await h.until("usb 1 on", () => Promise.resolve(hub.channels.usb?.["1"] === 1));
      h.kill("SIGKILL");
      await h.until(
        "the failsafe and the host gone",
        () => Promise.resolve(hub.channels.usb?.["1"] === 0 && hub.clients === 0),
        10_000,
      );
      // Its standard error went to the launcher, now gone: the log file still gets every line.
      const log = join(dataDir, "host", "logs", "host.log");
      await h.until(
        "the host's last line in host.log",
        async () => (await Deno.readTextFile(log)).endsWith(" - INFO - Plugin host stopped\n"),
      );
    } finally {
      await h.stop().catch(() => {});
      await hub.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
