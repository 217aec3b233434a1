/**
 * A Marlin printer on a real tty (the simulator), connected and operated through the host's API:
 * the handshake with the firmware's name and capabilities, temperatures auto-reported (`M155`)
 * or polled (`M105`) as the firmware allows, targets the simulated heaters follow, and the
 * terminal's sent and received lines.
 */
import assert from "node:assert/strict";
import { startRig } from "./_marlin_rig.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...opts,
  name:
    "a printer connects through the API: firmware and capabilities, auto-reported temperatures, targets the heaters follow, the terminal",
  async fn() {
    await using rig = await startRig();
    const path = rig.sim.path;
    const connect = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: path,
      baudrate: 250000,
    });
    assert.equal(connect.status, 204, JSON.stringify(connect.body));
    const info = (await rig.call("GET", "/api/connection")).body;
    assert.equal(info.current.state, "Operational");
    assert.equal(info.current.port, path);
    assert.equal(info.current.baudrate, 250000);
    assert.equal(info.current.error, null);
    assert.match(info.current.firmware.name, /^Marlin 2\.1\.2/);
    for (const cap of ["AUTOREPORT_TEMP", "EMERGENCY_PARSER", "SDCARD"]) {
      assert.equal(info.current.firmware.capabilities[cap], true, cap);
    }
    assert.ok(info.options.ports.includes(path), "the tty is offered (an extra port)");
    assert.ok(info.options.ports.includes("VIRTUAL"));
    assert.deepEqual(
      rig.accepted(/^M1(10|15|55)\b/),
      ["M110 N0", "M115", "M155 S1"],
      "the handshake, then the auto-report asked for",
    );
    assert.equal(rig.sim.controls.opens, 1, "the port was opened once");

    await rig.until("three reports", () => rig.printer.history().length >= 3);
    assert.deepEqual(rig.accepted(/^M105\b/), [], "auto-reported: no polls");

    const tool = await rig.call("POST", "/api/printer/tool", {
      command: "target",
      targets: { tool0: 200 },
    });
    assert.equal(tool.status, 204, JSON.stringify(tool.body));
    assert.equal(
      (await rig.call("POST", "/api/printer/bed", { command: "target", target: 60 })).status,
      204,
    );
    assert.equal(
      (await rig.call("POST", "/api/printer/chamber", { command: "target", target: 35 })).status,
      204,
    );
    assert.deepEqual(rig.accepted(/^M1(04|40|41)\b/), ["M104 T0 S200", "M140 S60", "M141 S35"]);
    const { heaters } = rig.sim.controls;
    assert.deepEqual([heaters.hotend.target, heaters.bed.target, heaters.chamber?.target], [
      200,
      60,
      35,
    ]);
    rig.sim.controls.advance(900); // a quarter of an hour, at once
    const printer = await rig.until("the heaters at their targets", async () => {
      const body = (await rig.call("GET", "/api/printer")).body;
      const t = body.temperature;
      return Math.abs(t.tool0.actual - 200) < 4 && Math.abs(t.bed.actual - 60) < 4 && body;
    });
    assert.equal(printer.temperature.tool0.target, 200);
    assert.equal(printer.temperature.bed.target, 60);
    assert.equal(printer.temperature.chamber.target, 35);
    assert.equal(printer.state.text, "Operational");

    const lines = (await rig.call("GET", "/api/printer/terminal")).body.lines as {
      direction: string;
      text: string;
    }[];
    const has = (direction: string, pattern: RegExp) =>
      lines.some((l) => l.direction === direction && pattern.test(l.text));
    assert.ok(lines.length <= 300, "the terminal keeps the recent lines");
    assert.ok(has("sent", /^N\d+ M104 T0 S200\*\d+$/), "a sent line, numbered");
    assert.ok(has("received", /^ T:\d+\.\d+ \/200\.00 B:/), "an auto-report received");
    assert.ok(has("received", /^ok$/));
    const said = rig.events.flatMap((e) => e.type === "terminal" ? [e.line] : []);
    assert.ok(
      said.some((l) =>
        l.direction === "info" && /^Connected to Marlin 2\.1\.2 \(.*\) on \//.test(l.text)
      ),
      "the host's own line, on the push socket",
    );
  },
});

Deno.test({
  ...opts,
  name: "a firmware without temperature auto-reports is polled with M105",
  async fn() {
    await using rig = await startRig({
      sim: { capabilities: { AUTOREPORT_TEMP: false } },
      connectAt: 250000,
    });
    const current = await rig.current();
    assert.equal(current.state, "Operational");
    assert.equal(
      (current.firmware as { capabilities: Record<string, boolean> }).capabilities
        .AUTOREPORT_TEMP,
      false,
    );
    await rig.until("three polls answered", () => rig.printer.history().length >= 3);
    assert.ok(rig.accepted(/^M105$/).length >= 3, "polled about every second");
    assert.deepEqual(rig.accepted(/^M155\b/), [], "no auto-report asked for");
    await rig.printer.setTargets({ bed: 50 });
    rig.sim.controls.advance(900);
    await rig.until("the bed's poll at 50 °C", () => {
      const bed = rig.printer.snapshot().temperatures.bed;
      return bed && bed.target === 50 && Math.abs(bed.actual - 50) < 4;
    });
  },
});
