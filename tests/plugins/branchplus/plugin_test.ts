import assert from "node:assert/strict";
import { createHost, type Host } from "../../../lib/host/create_host.ts";
import { createLogger } from "../../../lib/log.ts";
import { plugin } from "../../../plugins/branchplus/mod.ts";
import { startHubSimulator } from "../../doubles/powerhub_sim.ts";
import { waitFor } from "../../_helpers.ts";
import { FakeClock } from "./fakes.ts";
import { hostWebApp } from "../../_web.ts";

const BASE = "/api/plugin/branchplus";
const quiet = createLogger("test.host", { level: "error", sink: () => {} });

async function call(host: Host, key: string | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers["X-Api-Key"] = key;
  const res = await hostWebApp(host).request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    retryAfter: res.headers.get("Retry-After"),
  };
}

async function connected(host: Host, key: string): Promise<void> {
  await waitFor(
    async () => (await call(host, key, "GET", BASE)).body.connected === true,
    "the plugin to connect",
  );
}

Deno.test("in the host the plugin enforces STATUS and CONTROL, follows the virtual printer and keeps its settings across a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "branchplus_host_" });
  const sim = await startHubSimulator({ port: 0 });
  const clock = new FakeClock();
  const make = () =>
    createHost({ plugins: [plugin], dataDir: dir, configDir: dir, clock, logger: quiet });
  let host = make();
  try {
    const { adminKey } = await host.start();
    assert.ok(adminKey);
    await host.users.addUser("viewer", "pw", ["STATUS"]);
    const viewer = await host.users.createKey("viewer");
    await host.users.addUser("operator", "pw", ["STATUS", "CONTROL"]);
    const operator = await host.users.createKey("operator");

    const ignore = {
      idle: "ignore",
      prepare: "ignore",
      printing: "ignore",
      paused: "ignore",
      error: "ignore",
    };
    const saved = await call(host, adminKey, "POST", "/api/settings", {
      plugins: {
        branchplus: {
          host: sim.host,
          port: sim.port,
          min_switch_interval: 0,
          channels: [
            { kind: "usb", id: 1, rules: { ...ignore, idle: "off", printing: "on", paused: "on" } },
            {
              kind: "mx24v",
              id: 1,
              rules: { ...ignore, idle: "off", printing: "on", paused: "off" },
            },
            ...[2, 3, 4, 5].map((id) => ({ kind: "usb", id, rules: ignore })),
            ...[2, 3, 4, 5].map((id) => ({ kind: "mx24v", id, rules: ignore, failsafe: "hold" })),
          ],
        },
      },
    });
    assert.equal(saved.status, 200);
    await connected(host, viewer);

    assert.equal((await call(host, null, "GET", BASE)).status, 401);
    assert.equal((await call(host, viewer, "GET", BASE)).status, 200);
    const denied = await call(host, viewer, "POST", BASE, {
      command: "set_channel",
      kind: "usb",
      id: 2,
      on: true,
    });
    assert.equal(denied.status, 403);
    const allowed = await call(host, operator, "POST", BASE, {
      command: "set_channel",
      kind: "usb",
      id: 2,
      on: true,
    });
    assert.deepEqual([allowed.status, allowed.body], [200, { ok: true }]);
    await waitFor(() => sim.channels.usb?.["2"] === 1, "usb 2 on");
    const bad = await call(host, operator, "POST", BASE, {
      command: "set_mode",
      kind: "usb",
      id: 1,
      mode: "x",
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.ok, false);
    assert.equal(bad.body.reason, "unknown_mode");
    assert.match(String(bad.body.detail), /Unknown mode/);

    // A print of the virtual printer: each move takes 50 ms on the (manual) printer clock.
    const moves = Array.from({ length: 50 }, (_, i) => `G1 X${i}`).join("\n");
    await host.uploads.store("box.gcode", ReadableStream.from([new TextEncoder().encode(moves)]));
    assert.equal(
      (await call(host, operator, "POST", "/api/files/local/box.gcode", {
        command: "select",
        print: true,
      })).status,
      204,
    );
    await waitFor(
      () => sim.channels.usb?.["1"] === 1 && sim.channels.mx24v?.["1"] === 1,
      "printing",
    );
    await call(host, operator, "POST", "/api/job", { command: "pause", action: "pause" });
    clock.advance(100); // the move in flight ends, then the print pauses
    await waitFor(() => sim.channels.usb?.["1"] === 1 && sim.channels.mx24v?.["1"] === 0, "paused");
    await call(host, operator, "POST", "/api/job", { command: "cancel" });
    await waitFor(() => sim.channels.usb?.["1"] === 0 && sim.channels.mx24v?.["1"] === 0, "idle");

    await call(host, operator, "POST", BASE, {
      command: "set_label",
      kind: "mx24v",
      id: 3,
      label: " Enclosure fan ",
    });
    await call(host, operator, "POST", BASE, {
      command: "set_mode",
      kind: "mx24v",
      id: 3,
      mode: "manual",
    });
    await call(host, operator, "POST", BASE, {
      command: "set_channel",
      kind: "mx24v",
      id: 3,
      on: true,
      confirm: true,
    });
    await waitFor(() => sim.channels.mx24v?.["3"] === 1, "mx24v 3 on");
    await call(host, operator, "POST", BASE, {
      command: "set_channel_config",
      kind: "usb",
      id: 2,
      failsafe: "on",
    });

    await host.stop();
    await waitFor(() => sim.clients === 0, "the plugin to disconnect");
    assert.equal(sim.channels.usb?.["2"], 1, "failsafe on");
    assert.equal(sim.channels.mx24v?.["3"], 1, "failsafe hold");

    sim.setChannel("mx24v", 3, false);
    host = make();
    await host.start();
    await connected(host, operator);
    const state = await call(host, operator, "GET", BASE);
    const channels = (state.body.config as { channels: Record<string, unknown>[] }).channels;
    const fan = channels.find((c) => c.kind === "mx24v" && c.id === 3)!;
    assert.equal(fan.label, "Enclosure fan");
    assert.equal(fan.mode, "manual");
    assert.equal(fan.manual_on, true);
    await waitFor(() => sim.channels.mx24v?.["3"] === 1, "the remembered state enforced again");
  } finally {
    await host.stop();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("in the host switch commands count per account, every API key of it together: the 11th in 10 s is a 429 with Retry-After and {ok: false, reason, detail}", async () => {
  const dir = await Deno.makeTempDir({ prefix: "branchplus_limit_" });
  const sim = await startHubSimulator({ port: 0 });
  const host = createHost({
    plugins: [plugin],
    dataDir: dir,
    configDir: dir,
    clock: new FakeClock(),
    logger: quiet,
  });
  try {
    const { adminKey } = await host.start();
    await host.users.addUser("operator", "pw", ["STATUS", "CONTROL"]);
    const keys = [await host.users.createKey("operator"), await host.users.createKey("operator")];
    const ignore = { idle: "ignore", prepare: "ignore", printing: "ignore", paused: "ignore" };
    const saved = await call(host, adminKey!, "POST", "/api/settings", {
      plugins: {
        branchplus: {
          host: sim.host,
          port: sim.port,
          channels: [1, 2, 3, 4, 5].map((id) => ({ kind: "usb", id, rules: ignore })),
        },
      },
    });
    assert.equal(saved.status, 200);
    await connected(host, keys[0]!);
    const toggle = (key: string, i: number) =>
      call(host, key, "POST", BASE, {
        command: "set_channel",
        kind: "usb",
        id: 1,
        on: i % 2 === 0,
      });
    for (let i = 0; i < 10; i++) {
      const res = await toggle(keys[i % 2]!, i);
      assert.deepEqual([res.status, res.body], [200, { ok: true }], `switch ${i + 1}`);
    }
    const refused = await toggle(keys[0]!, 10);
    assert.equal(refused.status, 429);
    assert.equal(refused.retryAfter, "10");
    assert.deepEqual(Object.keys(refused.body).sort(), ["detail", "ok", "reason"]);
    assert.equal(refused.body.reason, "rate_limited");
    assert.equal((await toggle(keys[1]!, 10)).status, 429, "the account's other key too");
    assert.deepEqual((await toggle(adminKey!, 10)).body, { ok: true }, "another account");
    await waitFor(() => sim.commands.length === 11, "eleven switches at the hub");
  } finally {
    await host.stop();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("in the host a clean stop and a planned restart log the hub connection's closing at INFO, never the WARNING 'Lost the connection'", async () => {
  const dir = await Deno.makeTempDir({ prefix: "branchplus_stop_" });
  const sim = await startHubSimulator({ port: 0 });
  const lines: string[] = [];
  const logger = createLogger("test.host", { level: "info", sink: (_l, line) => lines.push(line) });
  const make = () =>
    createHost({ plugins: [plugin], dataDir: dir, configDir: dir, clock: new FakeClock(), logger });
  try {
    for (const planned of [true, false]) {
      const host = make();
      const { adminKey } = await host.start();
      const key = adminKey ?? await host.users.createKey("admin");
      const saved = await call(host, key, "POST", "/api/settings", {
        plugins: { branchplus: { host: sim.host, port: sim.port } },
      });
      assert.equal(saved.status, 200);
      await connected(host, key);
      lines.length = 0;
      await host.stop({ planned });
      await waitFor(() => sim.clients === 0, "the plugin to disconnect");
      const hub = lines.filter((l) => /connection to the hub/.test(l));
      assert.equal(
        hub.filter((l) => / - INFO - Closed the connection to the hub/.test(l)).length,
        1,
      );
      assert.deepEqual(hub.filter((l) => / - WARNING - /.test(l)), [], `planned: ${planned}`);
    }
  } finally {
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});
