/**
 * The branch controller under real use: a user's command wins over a rule evaluation running
 * while its save is under way, channel updates merge by kind and id, a 24 V output needs a
 * confirmation through the API, losing the hub applies the failsafe after a grace period, and a
 * planned restart keeps the outputs.
 */
import assert from "node:assert/strict";
import type { ChannelConfig } from "../../../plugins/branchplus/channel_config.ts";
import { BranchController } from "../../../plugins/branchplus/controller.ts";
import { startHubSimulator } from "../../doubles/powerhub_sim.ts";
import { waitFor } from "../../_helpers.ts";
import { fakeContext, settle } from "./fakes.ts";
import { startPlugin } from "./harness.ts";

const IGNORE = {
  idle: "ignore",
  prepare: "ignore",
  printing: "ignore",
  paused: "ignore",
  error: "ignore",
};

function on(
  run: { sim: { channels: Record<string, Record<string, number>> } },
  kind: string,
  id: number,
) {
  return run.sim.channels[kind]?.[String(id)] === 1;
}

function stored(run: { settings: { get(): Record<string, unknown> } }, kind: string, id: number) {
  return (run.settings.get().channels as ChannelConfig[]).find((c) =>
    c.kind === kind && c.id === id
  )!;
}

Deno.test("a user's command wins over a rule evaluation that runs while its save is under way", async () => {
  const run = await startPlugin({
    settings: {
      min_switch_interval: 0,
      channels: [{ kind: "usb", id: 1, mode: "manual", manual_on: false, rules: IGNORE }],
    },
  });
  // Hold every save until the test lets it through: the gap the old code lost the command in.
  const { promise: gate, resolve: open } = Promise.withResolvers<void>();
  try {
    await run.synced();
    const update = run.settings.update.bind(run.settings);
    run.settings.update = async (partial) => {
      await gate;
      return await update(partial);
    };
    const answer = run.post({ command: "set_channel", kind: "usb", id: 1, on: true });
    await waitFor(() => on(run, "usb", 1), "the command to reach the hub");
    const sentBefore = run.sim.commands.length;
    // Rule evaluations triggered in the gap (printer state changes) see the command's state.
    run.printer.setState("PRINTING");
    run.printer.setState("OPERATIONAL");
    await settle(50);
    assert.deepEqual(run.sim.commands.slice(sentBefore), [], "no evaluation undid the command");
    assert.equal(on(run, "usb", 1), true);
    open();
    assert.deepEqual((await answer).body, { ok: true });
    assert.equal(stored(run, "usb", 1).manual_on, true);
    run.printer.setState("ERROR");
    await settle(50);
    assert.equal(on(run, "usb", 1), true);
  } finally {
    open();
    await run.stop();
  }
});

Deno.test("set_mode followed at once by set_channel keeps the channel on, every time", async () => {
  const run = await startPlugin({
    settings: { min_switch_interval: 0, channels: [{ kind: "usb", id: 3, rules: IGNORE }] },
  });
  try {
    await run.synced();
    for (let i = 0; i < 5; i++) {
      await run.post({ command: "set_mode", kind: "usb", id: 3, mode: "auto" });
      await run.post({ command: "set_channel", kind: "usb", id: 3, on: false });
      await run.post({ command: "set_mode", kind: "usb", id: 3, mode: "manual" });
      const sw = run.post({ command: "set_channel", kind: "usb", id: 3, on: true });
      // A rule evaluation right behind the command, while its save is under way.
      await waitFor(() => on(run, "usb", 3), "the command to reach the hub");
      run.printer.setState(i % 2 ? "PRINTING" : "OPERATIONAL");
      await sw;
      await settle(20);
      assert.equal(on(run, "usb", 3), true, `try ${i + 1}`);
      assert.equal(stored(run, "usb", 3).manual_on, true);
    }
  } finally {
    await run.stop();
  }
});

Deno.test("a settings update of channels merges by kind and id; [] changes nothing; replace is explicit", async () => {
  const run = await startPlugin({
    settings: {
      channels: [{
        kind: "usb",
        id: 1,
        label: "Lamp",
        mode: "manual",
        manual_on: true,
        rules: IGNORE,
      }],
    },
  });
  try {
    await run.synced();
    await waitFor(() => on(run, "usb", 1), "the manual channel on");
    await run.settings.update({ channels: [{ kind: "mx24v", id: 2, label: "Heater" }] });
    await run.settings.update({ channels: [{ kind: "usb", id: 1, rules: { printing: "on" } }] });
    await run.settings.update({ channels: [] });
    const lamp = stored(run, "usb", 1);
    assert.deepEqual([lamp.label, lamp.mode, lamp.manual_on], ["Lamp", "manual", true]);
    assert.equal(lamp.rules.printing, "on");
    assert.equal(lamp.rules.idle, "ignore");
    assert.equal(stored(run, "mx24v", 2).label, "Heater");
    await settle(50);
    assert.equal(on(run, "usb", 1), true, "a partial update switches nothing off");

    await run.settings.update({ channels: { replace: [{ kind: "usb", id: 2, label: "Only" }] } });
    assert.equal(stored(run, "usb", 2).label, "Only");
    assert.deepEqual([stored(run, "usb", 1).label, stored(run, "usb", 1).mode], ["USB 1", "auto"]);
    await assert.rejects(
      run.settings.update({ channels: [{ kind: "usb", id: 9, label: "x" }] }),
      /names no channel of the hub/,
    );
  } finally {
    await run.stop();
  }
});

Deno.test("switching a 24 V output on through the API needs confirm: true while confirm_high_power is set", async () => {
  const run = await startPlugin({
    settings: { channels: [{ kind: "mx24v", id: 1, rules: IGNORE }] },
  });
  try {
    await run.synced();
    const sent = run.sim.commands.length;
    const refused = await run.post({ command: "set_channel", kind: "mx24v", id: 1, on: true });
    assert.equal(refused.status, 200);
    assert.equal(refused.body.ok, false);
    assert.equal(refused.body.reason, "confirm_required");
    assert.match(String(refused.body.detail), /confirm/);
    await settle(30);
    assert.equal(run.sim.commands.length, sent, "nothing was sent");
    const bad = await run.post({
      command: "set_channel",
      kind: "mx24v",
      id: 1,
      on: true,
      confirm: "yes",
    });
    assert.equal(bad.status, 400);
    const ok = await run.post({
      command: "set_channel",
      kind: "mx24v",
      id: 1,
      on: true,
      confirm: true,
    });
    assert.deepEqual(ok.body, { ok: true });
    await waitFor(() => on(run, "mx24v", 1), "the 24 V output on");
    const off = await run.post({ command: "set_channel", kind: "mx24v", id: 1, on: false });
    assert.deepEqual(off.body, { ok: true }, "switching off needs no confirmation");
    const usb = await run.post({ command: "set_channel", kind: "usb", id: 4, on: true });
    assert.deepEqual(usb.body, { ok: true }, "a USB output needs none");
    await run.settings.update({ confirm_high_power: false });
    const plain = await run.post({ command: "set_channel", kind: "mx24v", id: 2, on: true });
    assert.deepEqual(plain.body, { ok: true });
  } finally {
    await run.stop();
  }
});

Deno.test("losing the hub longer than the grace period applies the failsafe on its return; a short loss only re-syncs", async () => {
  const run = await startPlugin({
    settings: {
      failsafe_grace: 5,
      reconnect_min: 1,
      reconnect_max: 1,
      min_switch_interval: 0,
      channels: [
        { kind: "usb", id: 1, mode: "manual", manual_on: true, failsafe: "off", rules: IGNORE },
        { kind: "usb", id: 2, mode: "manual", manual_on: true, failsafe: "hold", rules: IGNORE },
        { kind: "usb", id: 3, mode: "auto", failsafe: "off", rules: { ...IGNORE, idle: "on" } },
      ],
    },
  });
  const lose = async () => {
    run.sim.setRefuse(true);
    run.sim.setDropConnections(true);
    run.sim.setDropConnections(false);
    await waitFor(() => !run.controller.status().connected, "the loss");
  };
  const back = async () => {
    run.sim.setRefuse(false);
    const before = run.pushesOf("connection").length;
    for (let i = 0; i < 200 && run.pushesOf("connection").length === before; i++) {
      run.clock.advance(1000);
      await settle(10);
    }
    await waitFor(() => run.controller.status().connected, "the return");
    await settle(50);
  };
  try {
    await run.synced();
    await waitFor(() => on(run, "usb", 1) && on(run, "usb", 2) && on(run, "usb", 3), "all on");

    // Short loss: the hub comes back after 2 s with usb 1 off (it rebooted): re-synced, the
    // remembered state is enforced again, no failsafe.
    await lose();
    run.sim.setChannel("usb", 1, false);
    await back();
    await waitFor(() => on(run, "usb", 1), "usb 1 enforced again");
    assert.equal(run.pushesOf("failsafe").length, 0);

    // Long loss: announced when the grace period ends, applied on the return.
    await lose();
    run.clock.advance(6000);
    assert.deepEqual(run.pushesOf("failsafe"), [{
      type: "failsafe",
      reason: "hub_lost",
      pending: true,
    }]);
    await back();
    await waitFor(() => !on(run, "usb", 1), "usb 1 at its failsafe (off)");
    assert.equal(on(run, "usb", 2), true, "hold keeps usb 2");
    assert.equal(on(run, "usb", 3), true, "auto usb 3 follows its rule");
    const applied = run.pushesOf("failsafe")[1]!;
    assert.deepEqual(applied.applied, [{ kind: "usb", id: 1, on: false }]);
    await waitFor(() => stored(run, "usb", 1).manual_on === false, "the failsafe remembered");
    await settle(50);
    assert.equal(on(run, "usb", 1), false, "manual enforcement keeps the failsafe state");
  } finally {
    await run.stop();
  }
});

Deno.test("after a long loss the failsafe log and push count every channel that took its failsafe state, one the rebooted hub already had there too", async () => {
  const run = await startPlugin({
    settings: {
      failsafe_grace: 5,
      reconnect_min: 1,
      reconnect_max: 1,
      min_switch_interval: 0,
      channels: [
        { kind: "usb", id: 1, mode: "manual", manual_on: true, failsafe: "off", rules: IGNORE },
        { kind: "usb", id: 2, mode: "manual", manual_on: false, failsafe: "on", rules: IGNORE },
      ],
    },
  });
  try {
    await run.synced();
    await waitFor(() => on(run, "usb", 1), "usb 1 on");
    run.sim.setRefuse(true);
    run.sim.setDropConnections(true);
    run.sim.setDropConnections(false);
    await waitFor(() => !run.controller.status().connected, "the loss");
    run.clock.advance(6000);
    // The hub restarted meanwhile: it comes back with every output off.
    run.sim.setChannel("usb", 1, false);
    run.sim.setRefuse(false);
    for (let i = 0; i < 50 && !run.controller.status().connected; i++) {
      run.clock.advance(1000);
      await settle(10);
    }
    await waitFor(() => run.pushesOf("failsafe").length === 2, "the failsafe on the return");
    assert.deepEqual(run.pushesOf("failsafe")[1]!.applied, [
      { kind: "usb", id: 1, on: false },
      { kind: "usb", id: 2, on: true },
    ]);
    const line = run.logs.find((l) => /Hub back after a long loss/.test(l));
    assert.match(String(line), /failsafe applied to 2 channel\(s\) \(1 switched, 1 already/);
    await waitFor(() => on(run, "usb", 2), "usb 2 at its failsafe (on)");
    await settle(50);
    assert.equal(on(run, "usb", 1), false, "usb 1 stays at its failsafe (off)");
    assert.deepEqual(
      run.sim.commands.filter((c) => c.kind === "usb" && c.id === 2),
      [{ kind: "usb", id: 2, on: 1 }],
      "one switch per channel",
    );
  } finally {
    await run.stop();
  }
});

Deno.test("a planned stop keeps the outputs and a resumed start neither applies the startup behaviour nor drops a held temperature rule", async () => {
  const sim = await startHubSimulator();
  const settings = {
    host: sim.host,
    port: sim.port,
    startup_behaviour: "all_off",
    temp_hysteresis: 2,
    channels: [
      { kind: "usb", id: 1, mode: "manual", manual_on: true, failsafe: "off", rules: IGNORE },
      {
        kind: "usb",
        id: 4,
        failsafe: "off",
        rules: { ...IGNORE, idle: "off" },
        temp_rule: { enabled: true, sensor: "bed", threshold: 40, above: "on" },
      },
    ],
  };
  try {
    sim.setChannel("usb", 1, true);
    sim.setChannel("usb", 4, true);
    // The bed cooled to 39 °C: inside the hysteresis band, the rule that switched usb 4 on holds.
    const first = fakeContext(settings);
    first.printer.temperatures.bed = { actual: 39, target: null };
    const a = new BranchController(first.ctx);
    a.start({ resumed: true });
    await waitFor(
      () => a.status().connected && Object.keys(a.status().channels).length > 0,
      "sync",
    );
    await settle(50);
    assert.deepEqual([sim.channels.usb?.["1"], sim.channels.usb?.["4"]], [1, 1]);
    await a.stop({ planned: true });
    await waitFor(() => sim.clients === 0, "disconnect");
    assert.deepEqual([sim.channels.usb?.["1"], sim.channels.usb?.["4"]], [1, 1], "no failsafe");

    // A fresh (not resumed) start applies all_off, and a real stop the failsafe.
    const second = fakeContext(settings);
    second.printer.temperatures.bed = { actual: 39, target: null };
    const b = new BranchController(second.ctx);
    b.start();
    await waitFor(() => sim.channels.usb?.["4"] === 0, "startup all_off");
    await b.stop();
    await waitFor(() => sim.clients === 0, "disconnect");
    assert.equal(sim.channels.usb?.["1"], 0);
  } finally {
    await sim.close();
  }
});
