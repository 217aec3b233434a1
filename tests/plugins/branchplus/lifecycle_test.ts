/**
 * The one-off moments of `lifecycle.ts` through the controller: the startup behaviour on the first
 * connection, the failsafe on shutdown, and the failsafe when the hub comes back after a loss
 * longer than `failsafe_grace` (announced by `powerhub_loss.ts`): which channels take their
 * failsafe state, and that the log and push count them truly.
 */
import assert from "node:assert/strict";
import type { ChannelConfig } from "../../../plugins/branchplus/channel_config.ts";
import { waitFor } from "../../_helpers.ts";
import { settle } from "./fakes.ts";
import { startPlugin } from "./harness.ts";

const IGNORE = {
  idle: "ignore",
  prepare: "ignore",
  printing: "ignore",
  paused: "ignore",
  error: "ignore",
};

/** Channel entries: every channel ignores the printer unless listed. */
function channels(overrides: Record<string, Partial<ChannelConfig>>) {
  return ["usb", "mx24v"].flatMap((kind) =>
    [1, 2, 3, 4, 5].map((id) => ({ kind, id, rules: IGNORE, ...overrides[`${kind}:${id}`] }))
  );
}

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

Deno.test("startup all_off switches every channel off on the first connection only", async () => {
  const run = await startPlugin({
    settings: {
      startup_behaviour: "all_off",
      channels: channels({ "usb:1": { mode: "manual", manual_on: true } }),
    },
    initiallyOn: [["usb", 2], ["mx24v", 4]],
  });
  await run.synced();
  await waitFor(() => run.sim.commands.length >= 10, "ten off commands");
  assert.deepEqual(run.sim.commands.slice(0, 10).map((c) => c.on), Array(10).fill(0));
  await waitFor(() => on(run, "usb", 1), "then the rules: manual usb 1 on");
  assert.equal(on(run, "usb", 2) || on(run, "mx24v", 4), false);

  run.sim.setDropConnections(true);
  await waitFor(() => !run.controller.status().connected, "the drop");
  run.sim.setDropConnections(false);
  run.sim.setChannel("usb", 3, true);
  const before = run.sim.commands.length;
  run.clock.advance(1000);
  await waitFor(() => run.pushesOf("connection").length === 3, "the reconnect");
  await settle();
  assert.equal(run.sim.commands.length, before, "no second all_off");
  assert.equal(on(run, "usb", 3), true);
  await run.stop();
});

Deno.test("startup restore sends each manual channel's remembered state", async () => {
  const run = await startPlugin({
    settings: {
      startup_behaviour: "restore",
      automation_enabled: false,
      channels: channels({
        "usb:2": { mode: "manual", manual_on: true },
        "mx24v:1": { mode: "manual", manual_on: false },
      }),
    },
    initiallyOn: [["mx24v", 1], ["usb", 4]],
  });
  await run.synced();
  await waitFor(() => on(run, "usb", 2) && !on(run, "mx24v", 1), "restored");
  assert.equal(on(run, "usb", 4), true, "auto channels untouched");
  assert.deepEqual(run.sim.commands, [{ kind: "usb", id: 2, on: 1 }, {
    kind: "mx24v",
    id: 1,
    on: 0,
  }]);
  await run.stop();
});

Deno.test("startup leave sends nothing when the rules ignore the printer", async () => {
  const run = await startPlugin({
    settings: { channels: channels({}) },
    initiallyOn: [["usb", 1]],
  });
  await run.synced();
  await settle();
  assert.deepEqual(run.sim.commands, []);
  await run.stop();
});

Deno.test("shutdown applies each channel's failsafe and releases everything", async () => {
  const run = await startPlugin({
    settings: {
      channels: channels({
        "usb:1": { failsafe: "on" },
        "usb:2": { failsafe: "off" },
        "usb:3": { failsafe: "hold" },
      }),
    },
    initiallyOn: [["usb", 2], ["usb", 3]],
  });
  await run.synced();
  await run.controller.stop();
  await waitFor(() => run.sim.clients === 0, "the socket to close");
  assert.equal(on(run, "usb", 1), true);
  assert.equal(on(run, "usb", 2), false);
  assert.equal(on(run, "usb", 3), true, "hold leaves the channel alone");
  assert.equal(on(run, "mx24v", 5), false);
  assert.equal(run.printer.listeners, 0);
  assert.deepEqual(run.clock.pendingDelays(), []);
  await run.stop();
});
