import assert from "node:assert/strict";
import { plugin } from "../../../plugins/branchplus/mod.ts";
import { startHubSimulator } from "../../doubles/powerhub_sim.ts";
import { waitFor } from "../../_helpers.ts";
import { fakeContext, settle } from "./fakes.ts";
import { startPlugin } from "./harness.ts";

const allOff = { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 };

Deno.test("the descriptor guards reads with STATUS and commands with CONTROL", () => {
  const { ctx } = fakeContext();
  const routes = plugin.create!(ctx).routes!;
  assert.equal(routes.length, 1);
  assert.equal(routes[0]!.base, "/api/plugin/branchplus");
  assert.deepEqual(routes[0]!.permissions, { GET: "STATUS", POST: "CONTROL" });
});

Deno.test("GET returns connected, the channel states and the fixed layout", async () => {
  const run = await startPlugin({
    initiallyOn: [["mx24v", 3]],
    settings: { channels: [{ kind: "mx24v", id: 3, rules: { idle: "ignore" } }] },
  });
  await run.synced();
  const state = await run.get();
  assert.equal(state.connected, true);
  assert.deepEqual(state.channels, { usb: allOff, mx24v: { ...allOff, "3": 1 } });
  const layout = state.layout as { kind: string; id: number; type: string }[];
  assert.equal(layout.length, 10);
  assert.deepEqual(layout[0], { kind: "usb", id: 1, type: "Type-C 5A" });
  assert.deepEqual(layout[1], { kind: "usb", id: 2, type: "Type-C 1.5A" });
  assert.deepEqual(layout[9], { kind: "mx24v", id: 5, type: "MX3.0 24V" });
  const config = state.config as { channels: { label: string }[]; confirm_high_power: boolean };
  assert.equal(config.channels[5]!.label, "MX 1");
  assert.equal(config.confirm_high_power, true);
  assert.deepEqual(run.pushesOf("connection"), [{ type: "connection", connected: true }]);
  await run.stop();
});

Deno.test("set_channel switches the hub and the change arrives as a state push", async () => {
  const run = await startPlugin();
  await run.synced();
  const res = await run.post({ command: "set_channel", kind: "usb", id: 4, on: true });
  assert.deepEqual([res.status, res.body], [200, { ok: true }]);
  await waitFor(() => run.pushesOf("state").length === 2, "the state push");
  assert.deepEqual(run.pushesOf("state")[1], { type: "state", channels: { usb: { "4": 1 } } });
  assert.equal(run.sim.channels.usb?.["4"], 1);
  assert.equal(((await run.get()).channels as { usb: Record<string, number> }).usb["4"], 1);
  await run.stop();
});

Deno.test("unknown channels, modes and commands are 400 with {ok: false, reason, detail}", async () => {
  const run = await startPlugin();
  await run.synced();
  const cases: [unknown, string, RegExp][] = [
    [
      { command: "set_channel", kind: "usb", id: 6, on: true },
      "unknown_channel",
      /Unknown channel 'usb 6'/,
    ],
    [{ command: "set_channel", kind: "ac230", id: 1, on: true }, "unknown_channel", /Unknown/],
    [{ command: "set_label", id: 1, label: "x" }, "unknown_channel", /Unknown channel/],
    [{ command: "set_channel", kind: "usb", id: 1, on: "yes" }, "invalid_setting", /'on'/],
    [
      { command: "set_mode", kind: "usb", id: 1, mode: "turbo" },
      "unknown_mode",
      /Unknown mode 'turbo'/,
    ],
    [{ command: "self_destruct" }, "unknown_command", /Unknown command 'self_destruct'/],
    [{ kind: "usb", id: 1 }, "unknown_command", /Unknown command/],
    [[1, 2], "invalid_json", /JSON object/],
    ["{not json", "invalid_json", /not valid JSON/],
    [{ command: "set_channel_config", kind: "usb", id: 1 }, "bad_request", /no valid fields/],
    [
      { command: "set_channel_config", kind: "usb", id: 1, failsafe: "maybe" },
      "invalid_setting",
      /'failsafe'/,
    ],
    [
      { command: "set_channel_config", kind: "usb", id: 1, rules: { idle: "x" } },
      "invalid_setting",
      /'rules\.idle'/,
    ],
    [{ command: "test_connection", port: 99999 }, "invalid_setting", /'port'/],
  ];
  for (const [body, reason, detail] of cases) {
    const res = await run.post(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.deepEqual(Object.keys(res.body).sort(), ["detail", "ok", "reason"]);
    assert.equal(res.body.ok, false);
    assert.equal(res.body.reason, reason, JSON.stringify(body));
    assert.match(String(res.body.detail), detail);
  }
  assert.deepEqual(run.sim.commands, []);
  await run.stop();
});

Deno.test("switch commands are limited per account: the 11th within 10 s is a 429 with Retry-After, {ok: false, reason, detail}, and never reaches the hub", async () => {
  const ignore = { idle: "ignore", prepare: "ignore", printing: "ignore", paused: "ignore" };
  const run = await startPlugin({
    settings: { channels: [1, 2, 3, 4, 5].map((id) => ({ kind: "usb", id, rules: ignore })) },
  });
  try {
    await run.synced();
    const toggle = (i: number, user: string) =>
      run.post({ command: "set_channel", kind: "usb", id: 1 + (i % 5), on: i % 2 === 0 }, user);
    for (let i = 0; i < 10; i++) {
      const res = await toggle(i, "alice");
      assert.deepEqual([res.status, res.body], [200, { ok: true }], `switch ${i + 1}`);
      run.clock.advance(500);
    }
    await waitFor(() => run.sim.commands.length === 10, "ten switches at the hub");
    const refused = await toggle(10, "alice");
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("Retry-After"), "5");
    assert.equal(refused.body.ok, false);
    assert.equal(refused.body.reason, "rate_limited");
    assert.match(String(refused.body.detail), /at most 10 per 10 s per account; try again in 5 s/);
    // Another account has its own budget; other commands are not switches.
    assert.deepEqual((await toggle(11, "bob")).body, { ok: true });
    const label = await run.post({ command: "set_label", kind: "usb", id: 1, label: "L" }, "alice");
    assert.equal(label.status, 200);
    // A refused command is not counted: the oldest switch leaves the window 5 s later.
    run.clock.advance(4500);
    assert.equal((await toggle(12, "alice")).status, 429);
    run.clock.advance(500);
    assert.deepEqual((await toggle(13, "alice")).body, { ok: true });
    await settle(50);
    assert.equal(run.sim.commands.length, 12, "only admitted switches reached the hub");
  } finally {
    await run.stop();
  }
});

Deno.test("set_mode persists the mode and answers with it", async () => {
  const run = await startPlugin();
  await run.synced();
  const res = await run.post({ command: "set_mode", kind: "mx24v", id: 2, mode: "manual" });
  assert.deepEqual(res.body, { ok: true, mode: "manual" });
  const stored = run.settings.get().channels as { kind: string; id: number; mode: string }[];
  assert.equal(stored.find((c) => c.kind === "mx24v" && c.id === 2)!.mode, "manual");
  await run.stop();
});

Deno.test("set_label strips the label, cuts it to 64 characters and persists it", async () => {
  const run = await startPlugin();
  await run.synced();
  const res = await run.post({
    command: "set_label",
    kind: "usb",
    id: 1,
    label: `  ${"L".repeat(80)}  `,
  });
  assert.deepEqual(res.body, { ok: true, label: "L".repeat(64) });
  const again = await run.post({ command: "set_label", kind: "usb", id: 1, label: "  Camera " });
  assert.deepEqual(again.body, { ok: true, label: "Camera" });
  const stored = run.settings.get().channels as { label: string }[];
  assert.equal(stored[0]!.label, "Camera");
  await run.stop();
});

Deno.test("set_channel_config merges and persists rules, temperature rule and failsafe", async () => {
  const run = await startPlugin();
  await run.synced();
  const res = await run.post({
    command: "set_channel_config",
    kind: "usb",
    id: 2,
    rules: { printing: "on", paused: "ignore" },
    temp_rule: { enabled: true, sensor: "chamber", threshold: "35.5" },
    failsafe: "hold",
  });
  assert.equal(res.status, 200);
  const config = res.body.config as Record<string, unknown>;
  assert.deepEqual(config.rules, {
    idle: "off",
    prepare: "off",
    printing: "on",
    paused: "ignore",
    error: "off",
  });
  assert.deepEqual(config.temp_rule, {
    enabled: true,
    sensor: "chamber",
    threshold: 35.5,
    above: "on",
  });
  assert.equal(config.failsafe, "hold");
  assert.deepEqual((run.settings.get().channels as unknown[])[1], config);
  await run.stop();
});

Deno.test("test_connection reports the channel count of the stored or given hub", async () => {
  const run = await startPlugin();
  const other = await startHubSimulator({
    port: 0,
    layout: [{ kind: "usb", id: 1 }, { kind: "mx24v", id: 1 }],
  });
  assert.deepEqual((await run.post({ command: "test_connection" })).body, {
    ok: true,
    channels: 10,
  });
  const given = await run.post({
    command: "test_connection",
    host: other.host,
    port: other.port,
    path: "/ws",
  });
  assert.deepEqual(given.body, { ok: true, channels: 2 });
  assert.equal(other.clients, 0);
  await other.close();
  await run.stop();
});

Deno.test("test_connection fails with no_host, unreachable and timeout", async () => {
  const run = await startPlugin({ settings: { host: "" } });
  const noHost = await run.post({ command: "test_connection" });
  assert.equal(noHost.body.ok, false);
  assert.equal(noHost.body.reason, "no_host");
  assert.match(String(noHost.body.detail), /host/);

  const slow = await startHubSimulator({ port: 0 });
  slow.setRefuse(true);
  const refused = await run.post({ command: "test_connection", host: slow.host, port: slow.port });
  assert.equal(refused.body.reason, "unreachable");
  assert.match(String(refused.body.detail), /Cannot reach the hub at ws:\/\/127\.0\.0\.1:\d+\/ws/);

  slow.setRefuse(false);
  slow.setDelayMs(60_000);
  const pending = run.post({ command: "test_connection", host: slow.host, port: slow.port });
  await waitFor(() => slow.clients === 1, "the probe to connect");
  run.clock.advance(5000);
  const timedOut = (await pending).body;
  assert.equal(timedOut.reason, "timeout");
  assert.match(String(timedOut.detail), /within 5 s/);
  await slow.close();
  await run.stop();
});

Deno.test("test_connection calls a hub whose first frame is no snapshot unreachable", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => socket.send("welcome");
    return response;
  });
  const run = await startPlugin({ settings: { host: "" } });
  const res = await run.post({
    command: "test_connection",
    host: "127.0.0.1",
    port: server.addr.port,
  });
  assert.equal(res.body.reason, "unreachable");
  assert.match(String(res.body.detail), /not a channel snapshot/);
  await run.stop();
  await server.shutdown();
});

Deno.test("channel commands fail with not_connected while the hub is down", async () => {
  const run = await startPlugin();
  await run.synced();
  run.sim.setDropConnections(true);
  await waitFor(() => run.pushesOf("connection").length === 2, "the connection push");
  assert.deepEqual(run.pushesOf("connection")[1], { type: "connection", connected: false });
  const res = await run.post({ command: "set_channel", kind: "usb", id: 1, on: true });
  assert.equal(res.status, 200);
  assert.equal(res.body.ok, false);
  assert.equal(res.body.reason, "not_connected");
  assert.match(String(res.body.detail), /not connected/);
  assert.deepEqual(await run.get(), { ...(await run.get()), connected: false, channels: {} });
  await run.stop();
});

Deno.test("without a host the plugin pushes connection false and commands fail", async () => {
  const run = await startPlugin({ settings: { host: "" } });
  await waitFor(() => run.pushesOf("connection").length === 1, "the connection push");
  assert.deepEqual(run.pushesOf("connection"), [{ type: "connection", connected: false }]);
  const res = await run.post({ command: "set_channel", kind: "mx24v", id: 1, on: false });
  assert.deepEqual(res.body, {
    ok: false,
    reason: "not_connected",
    detail: "No hub host is configured",
  });
  assert.equal((await run.get()).connected, false);
  await run.stop();
});

Deno.test("set_channel reports send_failed when the socket refuses the frame", async () => {
  const run = await startPlugin({
    controllerOptions: {
      createSocket(url) {
        const ws = new WebSocket(url);
        ws.send = () => {
          throw new DOMException("socket buffer full", "InvalidStateError");
        };
        return ws;
      },
    },
  });
  await run.synced();
  const res = await run.post({ command: "set_channel", kind: "usb", id: 1, on: true });
  assert.equal(res.body.ok, false);
  assert.equal(res.body.reason, "send_failed");
  assert.match(String(res.body.detail), /socket buffer full/);
  await run.stop();
});
