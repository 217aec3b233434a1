import assert from "node:assert/strict";
import type { ChannelConfig } from "../../../plugins/branchplus/channel_config.ts";
import { startHubSimulator } from "../../doubles/powerhub_sim.ts";
import { waitFor } from "../../_helpers.ts";
import { startPlugin } from "./harness.ts";
import { FakeClock, FakePrinter, settle } from "./fakes.ts";
import { createLogger } from "../../../lib/log.ts";
import { defaultChannelConfig } from "../../../plugins/branchplus/channel_config.ts";
import type { ChannelStates } from "../../../plugins/branchplus/layout.ts";
import type { HubClient } from "../../../plugins/branchplus/powerhub_client.ts";
import { RulesEngine } from "../../../plugins/branchplus/rules_engine.ts";
import { defaultSettings } from "../../../plugins/branchplus/settings.ts";

type Rules = Partial<ChannelConfig["rules"]>;
const IGNORE_ALL = {
  idle: "ignore",
  prepare: "ignore",
  printing: "ignore",
  paused: "ignore",
  error: "ignore",
};

/** Channel entries: every channel ignores the printer unless listed. */
type Override = Partial<Omit<ChannelConfig, "rules" | "temp_rule">> & {
  rules?: Rules;
  temp_rule?: Partial<ChannelConfig["temp_rule"]>;
};
function channels(overrides: Record<string, Override>) {
  return ["usb", "mx24v"].flatMap((kind) =>
    [1, 2, 3, 4, 5].map((id) => {
      const extra = overrides[`${kind}:${id}`] ?? {};
      return { kind, id, ...extra, rules: { ...IGNORE_ALL, ...extra.rules } };
    })
  );
}

function on(
  run: { sim: { channels: Record<string, Record<string, number>> } },
  kind: string,
  id: number,
) {
  return run.sim.channels[kind]?.[String(id)] === 1;
}

Deno.test("the printer going idle → printing → paused → idle switches channels as configured", async () => {
  const run = await startPlugin({
    settings: {
      min_switch_interval: 0,
      channels: channels({
        "usb:1": { rules: { idle: "off", printing: "on", paused: "on" } },
        "mx24v:1": { rules: { idle: "off", printing: "on", paused: "off" } },
        "mx24v:2": { rules: { idle: "on", printing: "off", paused: "ignore" } },
      }),
    },
  });
  await run.synced();
  await waitFor(() => on(run, "mx24v", 2), "idle: mx24v 2 on");
  assert.equal(on(run, "usb", 1) || on(run, "mx24v", 1), false);

  run.printer.setState("PRINTING");
  await waitFor(() => on(run, "usb", 1) && on(run, "mx24v", 1) && !on(run, "mx24v", 2), "printing");

  run.printer.setState("PAUSED");
  await waitFor(() => on(run, "usb", 1) && !on(run, "mx24v", 1), "paused");
  assert.equal(on(run, "mx24v", 2), false, "paused ignores mx24v 2");

  run.printer.setState("OPERATIONAL");
  await waitFor(() => !on(run, "usb", 1) && !on(run, "mx24v", 1) && on(run, "mx24v", 2), "idle");
  await run.stop();
});

Deno.test("cancelling a paused print does not switch printing: on outputs back on", async () => {
  const run = await startPlugin({
    settings: {
      min_switch_interval: 0,
      channels: channels({ "usb:2": { rules: { idle: "off", printing: "on", paused: "off" } } }),
    },
  });
  try {
    await run.synced();
    run.printer.setState("PRINTING");
    await waitFor(() => on(run, "usb", 2), "printing: usb 2 on");
    run.printer.setState("PAUSED");
    await waitFor(() => !on(run, "usb", 2), "paused: usb 2 off");
    const sent = run.sim.commands.length;
    run.printer.setState("CANCELLING");
    await settle(50);
    run.printer.setState("OPERATIONAL");
    await settle(50);
    assert.deepEqual(run.sim.commands.slice(sent), [], "the cancel switched nothing");
    assert.equal(on(run, "usb", 2), false);
  } finally {
    await run.stop();
  }
});

Deno.test("a switch within the minimum interval is deferred, then applied, never dropped", async () => {
  const run = await startPlugin({
    settings: {
      min_switch_interval: 3,
      channels: channels({ "usb:1": { rules: { idle: "off", printing: "on" } } }),
    },
  });
  await run.synced();
  run.printer.setState("PRINTING");
  await waitFor(() => on(run, "usb", 1), "the first switch");
  run.printer.setState("OPERATIONAL");
  await settle();
  assert.equal(on(run, "usb", 1), true, "the second switch waits");
  assert.equal(run.sim.commands.length, 1);
  run.clock.advance(2000);
  await settle();
  assert.equal(on(run, "usb", 1), true);
  run.clock.advance(1100);
  await waitFor(() => !on(run, "usb", 1), "the deferred switch");
  assert.deepEqual(run.sim.commands.map((c) => c.on), [1, 0]);
  await run.stop();
});

Deno.test("a deferred switch applies the rules as they are when the interval ends", async () => {
  const run = await startPlugin({
    settings: {
      min_switch_interval: 3,
      channels: channels({ "usb:1": { rules: { idle: "off", printing: "on", paused: "off" } } }),
    },
  });
  await run.synced();
  run.printer.setState("PRINTING");
  await waitFor(() => on(run, "usb", 1), "the first switch");
  run.printer.setState("PAUSED");
  run.printer.setState("RESUMING");
  run.clock.advance(3100);
  await settle();
  assert.equal(on(run, "usb", 1), true);
  assert.deepEqual(run.sim.commands.map((c) => c.on), [1]);
  await run.stop();
});

Deno.test("the temperature rule switches with hysteresis on temperature updates", async () => {
  const run = await startPlugin({
    settings: {
      min_switch_interval: 0,
      temp_hysteresis: 2,
      channels: channels({
        "usb:3": {
          rules: { idle: "off" },
          temp_rule: { enabled: true, sensor: "bed", threshold: 40, above: "on" },
        },
      }),
    },
  });
  await run.synced();
  run.printer.setTemperature("bed", 39.9);
  await settle();
  assert.equal(on(run, "usb", 3), false);
  run.printer.setTemperature("bed", 40);
  await waitFor(() => on(run, "usb", 3), "on at the threshold");
  run.printer.setTemperature("bed", 38.5);
  await settle();
  assert.equal(on(run, "usb", 3), true, "still on inside the hysteresis band");
  run.printer.setTemperature("bed", 38);
  await waitFor(() => !on(run, "usb", 3), "off at threshold − hysteresis");
  await run.stop();
});

Deno.test("temperature updates re-apply the rules only when a temperature rule exists", async () => {
  const run = await startPlugin({
    settings: {
      min_switch_interval: 0,
      channels: channels({ "usb:5": { mode: "manual", manual_on: true } }),
    },
  });
  await run.synced();
  await waitFor(() => on(run, "usb", 5), "manual on enforced");
  run.sim.setChannel("usb", 5, false);
  await waitFor(() => run.controller.status().channels.usb?.["5"] === 0, "the button press");
  run.printer.setTemperature("bed", 50);
  await settle();
  assert.equal(on(run, "usb", 5), false, "no temperature rule: nothing re-applied");
  await run.post({
    command: "set_channel_config",
    kind: "mx24v",
    id: 4,
    temp_rule: { enabled: true, sensor: "tool", threshold: 300 },
  });
  run.sim.setChannel("usb", 5, false);
  await settle();
  run.printer.setTemperature("bed", 51);
  await waitFor(() => on(run, "usb", 5), "re-applied on the temperature update");
  await run.stop();
});

Deno.test("manual mode enforces the remembered state and set_channel remembers it", async () => {
  const run = await startPlugin({
    settings: {
      min_switch_interval: 0,
      channels: channels({ "mx24v:5": { rules: { idle: "on", error: "off" } } }),
    },
  });
  await run.synced();
  await waitFor(() => on(run, "mx24v", 5), "auto: on");
  await run.post({ command: "set_mode", kind: "mx24v", id: 5, mode: "manual" });
  await waitFor(() => !on(run, "mx24v", 5), "manual: remembered off");
  const res = await run.post({
    command: "set_channel",
    kind: "mx24v",
    id: 5,
    on: true,
    confirm: true,
  });
  assert.deepEqual(res.body, { ok: true });
  await waitFor(() => on(run, "mx24v", 5), "switched by hand");
  const stored = (run.settings.get().channels as ChannelConfig[]).find((c) =>
    c.kind === "mx24v" && c.id === 5
  )!;
  assert.equal(stored.manual_on, true);
  run.printer.setState("ERROR");
  await settle();
  assert.equal(on(run, "mx24v", 5), true);
  await run.post({ command: "set_mode", kind: "mx24v", id: 5, mode: "auto" });
  await waitFor(() => !on(run, "mx24v", 5), "auto again: error → off");
  await run.stop();
});

Deno.test("set_channel in auto mode does not touch the remembered state", async () => {
  const run = await startPlugin({ settings: { channels: channels({}) } });
  await run.synced();
  await run.post({ command: "set_channel", kind: "usb", id: 2, on: true });
  await waitFor(() => on(run, "usb", 2), "switched");
  const stored = (run.settings.get().channels as ChannelConfig[])[1]!;
  assert.equal(stored.manual_on, false);
  await run.stop();
});

Deno.test("set_channel_config re-applies the rules at once", async () => {
  const run = await startPlugin({ settings: { min_switch_interval: 0, channels: channels({}) } });
  await run.synced();
  run.printer.setState("PRINTING");
  await settle();
  assert.deepEqual(run.sim.commands, []);
  await run.post({ command: "set_channel_config", kind: "usb", id: 4, rules: { printing: "on" } });
  await waitFor(() => on(run, "usb", 4), "the new rule");
  await run.stop();
});

Deno.test("with automation off the engine switches nothing", async () => {
  const run = await startPlugin({
    settings: { automation_enabled: false },
    initiallyOn: [["usb", 1]],
  });
  await run.synced();
  run.printer.setState("PRINTING");
  await settle();
  assert.deepEqual(run.sim.commands, []);
  assert.equal(on(run, "usb", 1), true);
  await run.stop();
});

Deno.test("a hub drop is pushed, commands fail, and the reconnect re-syncs the state", async () => {
  const run = await startPlugin({ settings: { channels: channels({}) } });
  await run.synced();
  run.sim.setRefuse(true);
  run.sim.setDropConnections(true);
  await waitFor(() => run.pushesOf("connection").length === 2, "the connection push");
  assert.deepEqual(run.pushesOf("connection")[1], { type: "connection", connected: false });
  const failed = await run.post({ command: "set_channel", kind: "usb", id: 1, on: true });
  assert.equal(failed.body.reason, "not_connected");
  run.sim.setDropConnections(false);
  run.sim.setChannel("mx24v", 2, true);
  run.clock.advance(1000);
  await waitFor(() => run.clock.pendingDelays().includes(2000), "the doubled backoff");
  run.sim.setRefuse(false);
  run.clock.advance(2000);
  await waitFor(() => run.pushesOf("connection").length === 3, "the reconnect push");
  assert.deepEqual(run.pushesOf("connection")[2], { type: "connection", connected: true });
  await waitFor(() => run.controller.status().channels.mx24v?.["2"] === 1, "the re-synced state");
  const ok = await run.post({ command: "set_channel", kind: "usb", id: 1, on: true });
  assert.deepEqual(ok.body, { ok: true });
  await run.stop();
});

Deno.test("changing host or port restarts the client on the new hub", async () => {
  const run = await startPlugin({ settings: { channels: channels({}) } });
  await run.synced();
  const other = await startHubSimulator({ port: 0, layout: [{ kind: "usb", id: 1 }] });
  await run.settings.update({ port: other.port });
  await waitFor(() => other.clients === 1 && run.sim.clients === 0, "the switch of hubs");
  await waitFor(() => run.controller.status().connected, "the new connection");
  assert.deepEqual(run.controller.status().channels, { usb: { "1": 0 } });
  assert.deepEqual(run.pushesOf("connection").map((p) => p.connected), [true, false, true]);
  await run.settings.update({ min_switch_interval: 5, reconnect_max: 60 });
  await settle();
  assert.equal(other.clients, 1, "other settings do not reconnect");
  await run.stop();
  await other.close();
});

Deno.test("an older broadcast still on its way does not make a newer switch look undone", () => {
  const clock = new FakeClock();
  const printer = new FakePrinter();
  printer.state = "PRINTING";
  const settings = {
    ...defaultSettings(),
    min_switch_interval: 0,
    channels: [{
      ...defaultChannelConfig("usb", 1),
      rules: { idle: "off", prepare: "off", printing: "on", paused: "off", error: "off" },
    }] as ChannelConfig[],
  };
  let hub: ChannelStates = { usb: { "1": 0 } };
  const sent: string[] = [];
  const client = {
    states: () => structuredClone(hub),
    send: (kind: string, id: number, on: boolean) => {
      sent.push(`${kind} ${id} ${on ? "on" : "off"}`);
      return { ok: true as const };
    },
  } as unknown as HubClient;
  const engine: RulesEngine = new RulesEngine({
    clock,
    logger: createLogger("test", { level: "error", sink: () => {} }),
    settings: () => settings,
    retry: () => engine.run(client, printer, "deferred switch"),
  });
  engine.run(client, printer, "printer state"); // the rules switch usb 1 on
  engine.noteUserSwitch("usb", 1, false); // a user switches it off right after
  hub = { usb: { "1": 1 } }; // the hub's broadcast of the first switch arrives
  engine.noteReported(hub);
  clock.advance(1000); // the hold ends: the rules see the user's off, not the stale on
  assert.deepEqual(sent, ["usb 1 on", "usb 1 on"]);
});
