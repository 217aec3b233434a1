/**
 * A print on a Marlin printer over a real tty (the simulator), paused, resumed and cancelled
 * through the host's job API: the pause and resume scripts and the cancel script reach the
 * printer, no line is sent while paused, none twice, none after a cancel.
 */
import assert from "node:assert/strict";
import { gcodeFile, startRig } from "./_marlin_rig.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const SCRIPTS = { pause: ["M117 Paused"], resume: ["M117 Printing again"] };

Deno.test({
  ...opts,
  name: "a print paused after its 50th line sends nothing more until resumed, then ends",
  async fn() {
    await using rig = await startRig({ connectAt: 250000, jobScripts: SCRIPTS });
    const file = gcodeFile(200);
    assert.equal((await rig.upload("part.gcode", file.text, { select: "true" })).status, 201);
    // Line 50 keeps the printer busy for a simulated 20 s (one real second): the pause comes
    // while it is in flight.
    let held = false;
    rig.onceSent(file.lines[49]!, () => {
      rig.sim.controls.busy(20);
      held = true;
    });
    assert.equal((await rig.call("POST", "/api/job", { command: "start" })).status, 204);
    await rig.until("line 50 in flight", () => held);
    const pause = await rig.call("POST", "/api/job", { command: "pause", action: "pause" });
    assert.equal(pause.status, 204, JSON.stringify(pause.body));
    await rig.until("paused", () => rig.printer.job().state === "PAUSED");
    assert.deepEqual(rig.accepted(/^G1 /), file.lines.slice(0, 50), "stopped after line 50");
    assert.deepEqual(rig.accepted(/^M117 /), ["M117 Paused"]);
    const job = (await rig.call("GET", "/api/job")).body;
    assert.equal(job.state, "Paused");
    assert.equal(job.progress.lines, 50);
    assert.ok(
      job.progress.completion > 20 && job.progress.completion < 30,
      job.progress.completion,
    );
    assert.equal((await rig.current()).state, "Paused");
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(rig.accepted(/^G1 /).length, 50, "nothing sent while paused");

    const resume = await rig.call("POST", "/api/job", { command: "pause", action: "resume" });
    assert.equal(resume.status, 204, JSON.stringify(resume.body));
    await rig.until("the print's end", () => rig.states().at(-1) === "OPERATIONAL");
    assert.deepEqual(rig.accepted(/^G1 /), file.lines, "every line once, in order");
    assert.deepEqual(rig.accepted(/^M117 /), ["M117 Paused", "M117 Printing again"]);
    const commands = rig.sim.controls.firmware.commands;
    assert.ok(
      commands.indexOf("M117 Printing again") < commands.indexOf(file.lines[50]!),
      "the resume script before line 51",
    );
    assert.equal((await rig.call("GET", "/api/job")).body.progress.completion, 100);
  },
});

Deno.test({
  ...opts,
  name:
    "a cancelled print stops after the line in flight and its cancel script reaches the printer",
  async fn() {
    await using rig = await startRig({ connectAt: 250000 });
    await rig.call("POST", "/api/printer/tool", { command: "target", targets: { tool0: 200 } });
    await rig.call("POST", "/api/printer/bed", { command: "target", target: 60 });
    const file = gcodeFile(200);
    assert.equal((await rig.upload("part.gcode", file.text, { print: "true" })).status, 201);
    let held = false;
    rig.onceSent(file.lines[29]!, () => {
      rig.sim.controls.busy(20);
      held = true;
    });
    await rig.until("line 30 in flight", () => held);
    const cancel = await rig.call("POST", "/api/job", { command: "cancel" });
    assert.equal(cancel.status, 204, JSON.stringify(cancel.body));
    await rig.until("cancelled", () => rig.states().at(-1) === "OPERATIONAL");
    assert.deepEqual(rig.states().slice(-3), ["PRINTING", "CANCELLING", "OPERATIONAL"]);
    assert.deepEqual(rig.accepted(/^G1 /), file.lines.slice(0, 30), "nothing after line 30");
    const commands = rig.sim.controls.firmware.commands;
    assert.deepEqual(
      commands.slice(commands.indexOf(file.lines[29]!) + 1).filter((c) => !/^M105$/.test(c)),
      ["M104 S0", "M140 S0", "M107", "M84"],
      "the cancel script, next",
    );
    const { heaters } = rig.sim.controls;
    assert.deepEqual([heaters.hotend.target, heaters.bed.target], [0, 0], "the heaters off");
    const job = (await rig.call("GET", "/api/job")).body;
    assert.equal(job.state, "Operational");
    assert.equal(job.job.file.name, "part.gcode", "the file stays selected");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(rig.accepted(/^G1 /).length, 30, "nothing sent after the cancel");
    // The same file prints again, from its beginning.
    assert.equal((await rig.call("POST", "/api/job", { command: "start" })).status, 204);
    await rig.until("the second print's end", () => rig.accepted(/^G1 /).length === 230);
    await rig.until("operational", () => rig.states().at(-1) === "OPERATIONAL");
    assert.deepEqual(rig.accepted(/^G1 /).slice(30), file.lines);
  },
});
