/**
 * A Marlin printer on a real tty (the simulator) that vanishes as an unplugged USB printer does:
 * the host goes "Offline after error" with a message that names the lost line, a print under
 * way fails and shows how far it got, a connect while it is gone names the missing port, and a
 * connect once it is back works.
 */
import assert from "node:assert/strict";
import { gcodeFile, startRig } from "./_marlin_rig.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...opts,
  name:
    "an unplugged printer leaves the host offline after error, naming the lost line; it connects again once replugged",
  async fn() {
    await using rig = await startRig({ connectAt: 250000 });
    const path = rig.sim.path;
    await rig.sim.controls.unplug();
    await rig.until("offline", () => rig.printer.connection().state === "OFFLINE");
    const current = await rig.current();
    assert.equal(current.state, "Offline after error");
    assert.match(
      current.error as string,
      new RegExp(`^The line to the printer failed: The serial line ${path} was lost \\(`),
    );
    assert.match(current.error as string, /is the USB cable plugged in/);
    assert.equal(current.firmware, null);
    assert.deepEqual((await rig.call("GET", "/api/printer")).body.temperature, {});
    const refused = await rig.call("POST", "/api/printer/command", { command: "M105" });
    assert.equal(refused.status, 409);
    assert.match(refused.body.error, /not connected/);

    const gone = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: path,
      baudrate: 250000,
    });
    assert.equal(gone.status, 404, JSON.stringify(gone.body));
    assert.match(gone.body.error, new RegExp(`^No serial port at ${path}\\. `));
    const missing = await rig.current();
    assert.deepEqual([missing.state, missing.error], ["Offline after error", gone.body.error]);

    await rig.sim.controls.replug();
    const back = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: path,
      baudrate: 250000,
    });
    assert.equal(back.status, 204, JSON.stringify(back.body));
    const after = await rig.current();
    assert.deepEqual([after.state, after.error], ["Operational", null]);
    assert.equal((await rig.call("POST", "/api/printer/command", { command: "M105" })).status, 204);
  },
});

Deno.test({
  ...opts,
  name:
    "a print under way when the printer vanishes fails, showing how far it got, and prints again once replugged",
  async fn() {
    await using rig = await startRig({ connectAt: 250000 });
    const file = gcodeFile(200);
    assert.equal((await rig.upload("part.gcode", file.text, { print: "true" })).status, 201);
    // Line 80 is held (never acknowledged) when the cable goes.
    let unplugged = false;
    rig.onceSent(file.lines[79]!, () => {
      rig.sim.controls.busy(1000);
      unplugged = true;
      setTimeout(() => rig.sim.controls.unplug(), 50);
    });
    await rig.until("unplugged", () => unplugged);
    await rig.until("offline", () => rig.states().at(-1) === "OFFLINE");
    assert.deepEqual(rig.states().slice(-2), ["PRINTING", "OFFLINE"]);
    assert.equal((await rig.current()).state, "Offline after error");
    const job = (await rig.call("GET", "/api/job")).body;
    assert.equal(job.state, "Offline");
    assert.equal(job.job.file.name, "part.gcode");
    assert.equal(job.progress.lines, 79, "how far it got");
    assert.ok(job.progress.completion > 35 && job.progress.completion < 45);
    const said = rig.events.flatMap((e) =>
      e.type === "terminal" && e.line.direction === "info" ? [e.line.text] : []
    );
    assert.equal(said.at(-1), "The print of part.gcode failed after 79 lines");
    const accepted = rig.accepted(/^G1 /);
    assert.deepEqual(accepted.slice(0, 79), file.lines.slice(0, 79));
    assert.ok(accepted.length <= 80, "nothing sent after the line in flight");

    await rig.sim.controls.replug();
    const back = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: rig.sim.path,
      baudrate: 250000,
    });
    assert.equal(back.status, 204, JSON.stringify(back.body));
    const fresh = (await rig.call("GET", "/api/job")).body;
    assert.deepEqual([fresh.state, fresh.job.file.name], ["Operational", "part.gcode"]);
    assert.equal(fresh.progress.lines, null, "a new connection starts the file afresh");
    assert.equal((await rig.call("POST", "/api/job", { command: "start" })).status, 204);
    await rig.until("the print's end", () => rig.accepted(/^G1 /).length === 200 + accepted.length);
    await rig.until("operational", () => rig.states().at(-1) === "OPERATIONAL");
    assert.deepEqual(rig.accepted(/^G1 /).slice(accepted.length), file.lines);
  },
});
