/**
 * The branch controller under real use: a user's command wins over a rule evaluation running
 * while its save is under way, a job start and a user's switch end the same whatever their order
 * and timing, channel updates merge by kind and id, a 24 V output needs a confirmation through the
 * API, and a planned restart keeps the outputs.
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

/** A seeded pseudo-random generator (mulberry32): the same rounds on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("a job start and a user's switch end the same in any order and timing: an auto channel at its rules' verdict once the hold ends, a manual one at the command (100 random interleavings)", async () => {
  // Default min_switch_interval (3 s). usb 1: auto, printing → on. usb 2: manual.
  let sent = 0;
  const run = await startPlugin({
    settings: {
      channels: [
        { kind: "usb", id: 1, rules: { ...IGNORE, idle: "off", printing: "on" } },
        { kind: "usb", id: 2, mode: "manual", manual_on: true, rules: IGNORE },
      ],
    },
    controllerOptions: {
      createSocket: (url) => {
        const ws = new WebSocket(url);
        const send = ws.send.bind(ws);
        ws.send = (data) => {
          sent++;
          send(data);
        };
        return ws;
      },
    },
  });
  const rand = random(26);
  const pick = (max: number) => Math.floor(rand() * (max + 1));
  const update = run.settings.update.bind(run.settings);
  let saveDelay = 0;
  run.settings.update = async (partial) => {
    await settle(saveDelay);
    return await update(partial);
  };
  // Every switch sent has reached the hub and its broadcast is back (however slow the machine).
  const delivered = () =>
    waitFor(
      () =>
        run.sim.commands.length === sent &&
        JSON.stringify(run.controller.status().channels) === JSON.stringify(run.sim.channels),
      "every switch at the hub and back",
    );
  // Lets the fake clock run until nothing is left to do (holds, deferred runs, broadcasts).
  const quiesce = async () => {
    for (let i = 0; i < 3; i++) {
      run.clock.advance(2000);
      await delivered();
    }
  };
  const outcomes: string[] = [];
  try {
    await run.synced();
    for (let round = 0; round < 100; round++) {
      // Back to idle, usb 1 off by its rule, usb 2 on by a command.
      run.sim.setDelayMs(0);
      saveDelay = 0;
      run.printer.setState("OPERATIONAL");
      await run.post({ command: "set_channel", kind: "usb", id: 2, on: true });
      await quiesce();
      assert.deepEqual([on(run, "usb", 1), on(run, "usb", 2)], [false, true], `reset ${round}`);

      // The interleaving: which comes first, the real and clock time between the two, how late
      // the hub's broadcasts and the settings saves are.
      const echoMs = pick(8);
      run.sim.setDelayMs(echoMs);
      saveDelay = pick(8);
      const jobFirst = rand() < 0.5;
      const gapMs = pick(6);
      const clockGap = [0, 1, 500, 2999, 3000, 3200][pick(5)]!;
      const jobStart = () => run.printer.setState("PRINTING");
      const userOff = () =>
        Promise.all(
          [1, 2].map((id) => run.post({ command: "set_channel", kind: "usb", id, on: false })),
        );
      let answers: Promise<unknown>;
      if (jobFirst) {
        jobStart();
        if (gapMs) await settle(gapMs);
        run.clock.advance(clockGap);
        answers = userOff();
      } else {
        answers = userOff();
        if (gapMs) await settle(gapMs);
        run.clock.advance(clockGap);
        jobStart();
      }
      await answers;
      await quiesce();
      const end = `usb1=${on(run, "usb", 1) ? "on" : "off"} usb2=${
        on(run, "usb", 2) ? "on" : "off"
      }`;
      outcomes.push(end);
      const timing =
        `job first ${jobFirst}, gap ${gapMs} ms, clock ${clockGap} ms, echo ${echoMs} ms`;
      assert.equal(end, "usb1=on usb2=off", `round ${round} (${timing})`);
      assert.equal(stored(run, "usb", 2).manual_on, false);
    }
    assert.equal(new Set(outcomes).size, 1);
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
