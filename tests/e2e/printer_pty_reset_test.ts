/**
 * A Marlin board that resets mid-connection (it prints `start` again: a brown-out, a watchdog,
 * the reset button), on a real tty (the simulator): the host shakes hands again and the printer
 * is operational again; a print under way at that moment ends in a clear error, never a hang.
 */
import assert from "node:assert/strict";
import { gcodeFile, startRig } from "./_marlin_rig.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...opts,
  name: "a board that resets while idle is shaken hands with again and is operational again",
  async fn() {
    await using rig = await startRig({ connectAt: 250000 });
    await rig.printer.setTargets({ tool0: 180 });
    const before = rig.states().length;
    rig.sim.controls.reset();
    await rig.until(
      "operational again",
      () => rig.states().at(-1) === "OPERATIONAL" && rig.states().length > before,
    );
    assert.deepEqual(rig.states().slice(before), ["CONNECTING", "OPERATIONAL"]);
    assert.deepEqual(rig.accepted(/^M1(10|15|55)\b/), [
      "M110 N0",
      "M115",
      "M155 S1",
      "M110 N0",
      "M115",
      "M155 S1",
    ], "a second handshake");
    const current = await rig.current();
    assert.deepEqual([current.state, current.error], ["Operational", null]);
    assert.match(
      (current.firmware as { name: string }).name,
      /^Marlin 2\.1\.2/,
      "the firmware as the second handshake told it",
    );
    assert.equal(rig.sim.controls.opens, 1, "the port was not reopened");
    const said = rig.events.flatMap((e) =>
      e.type === "terminal" && e.line.direction === "info" ? [e.line.text] : []
    );
    assert.ok(said.includes("The printer restarted: shaking hands again"), said.join(" | "));
    await rig.until(
      "a report after the reset",
      () => rig.printer.snapshot().temperatures.tool0?.target === 0,
    );
    assert.equal((await rig.call("POST", "/api/printer/command", { command: "M105" })).status, 204);
  },
});

Deno.test({
  ...opts,
  name: "a board that resets during a print ends the print in a clear error, and then prints again",
  async fn() {
    await using rig = await startRig({ connectAt: 250000 });
    const file = gcodeFile(200);
    assert.equal((await rig.upload("part.gcode", file.text, { print: "true" })).status, 201);
    let reset = false;
    rig.onceSent(file.lines[79]!, () => {
      rig.sim.controls.reset();
      reset = true;
    });
    await rig.until("the reset", () => reset);
    await rig.until("the print's end", () => rig.states().at(-1) === "ERROR");
    assert.deepEqual(rig.states().slice(-3), ["PRINTING", "CONNECTING", "ERROR"]);
    const current = await rig.current();
    assert.equal(current.state, "Error: The printer restarted before it answered");
    assert.match((current.firmware as { name: string }).name, /^Marlin 2\.1\.2/, "shaken hands");
    const job = (await rig.call("GET", "/api/job")).body;
    assert.equal(job.state, "Error");
    assert.equal(job.progress.lines, 79, "line 80 was lost in the reset");
    assert.deepEqual(rig.accepted(/^G1 /), file.lines.slice(0, 79));
    const said = rig.events.flatMap((e) =>
      e.type === "terminal" && e.line.direction === "info" ? [e.line.text] : []
    );
    assert.ok(
      said.includes("The print failed: The printer restarted before it answered"),
      said.join(" | "),
    );
    const again = await rig.call("POST", "/api/job", { command: "start" });
    assert.equal(again.status, 409, "no new print on a printer in error");
    assert.match(again.body.error, /the printer is Error/);

    // Disconnect and connect (the board resets on open), then the file prints to its end.
    assert.equal(
      (await rig.call("POST", "/api/connection", { command: "disconnect" })).status,
      204,
    );
    const connect = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: rig.sim.path,
      baudrate: 250000,
    });
    assert.equal(connect.status, 204, JSON.stringify(connect.body));
    const fresh = await rig.current();
    assert.deepEqual([fresh.state, fresh.error], ["Operational", null]);
    assert.equal((await rig.call("GET", "/api/job")).body.job.file.name, "part.gcode");
    assert.equal((await rig.call("POST", "/api/job", { command: "start" })).status, 204);
    await rig.until(
      "the second print's end",
      () => rig.states().at(-1) === "OPERATIONAL" && rig.accepted(/^G1 /).length === 279,
    );
    assert.deepEqual(rig.accepted(/^G1 /).slice(79), file.lines);
  },
});
