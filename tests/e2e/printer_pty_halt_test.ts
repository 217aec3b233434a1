/**
 * A Marlin printer on a real tty (the simulator) whose firmware halts (`kill()`, `!!`): the host
 * shows "Error: …" with the firmware's words and its cause, refuses every command with the
 * reason, ends a print under way in an error, and a disconnect and connect (the board resets on
 * open) brings the printer back.
 */
import assert from "node:assert/strict";
import { gcodeFile, type Rig, startRig } from "./_marlin_rig.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** Disconnects and connects through the API; the printer is then operational. */
async function reconnect(rig: Rig): Promise<void> {
  assert.equal((await rig.call("POST", "/api/connection", { command: "disconnect" })).status, 204);
  const connect = await rig.call("POST", "/api/connection", {
    command: "connect",
    port: rig.sim.path,
    baudrate: 250000,
  });
  assert.equal(connect.status, 204, JSON.stringify(connect.body));
  const current = await rig.current();
  assert.deepEqual([current.state, current.error], ["Operational", null]);
  assert.equal((await rig.call("POST", "/api/printer/command", { command: "M105" })).status, 204);
}

Deno.test({
  ...opts,
  name:
    "a firmware halt shows Error with its cause, every command is refused with it, and a reconnect recovers",
  async fn() {
    await using rig = await startRig({ connectAt: 250000 });
    await rig.printer.setTargets({ tool0: 200 });
    rig.sim.controls.halt("kill", "Thermal Runaway, system stopped! Heater_ID: 0");
    await rig.until("the error", () => rig.states().at(-1) === "ERROR");
    const message =
      "Printer halted. kill() called! (Thermal Runaway, system stopped! Heater_ID: 0)";
    const current = await rig.current();
    assert.deepEqual([current.state, current.stateId, current.error], [
      `Error: ${message}`,
      "ERROR",
      message,
    ]);
    const printer = (await rig.call("GET", "/api/printer")).body;
    assert.deepEqual([printer.state.flags.error, printer.state.flags.operational], [true, false]);

    const refusals = [
      await rig.call("POST", "/api/printer/command", { command: "M105" }),
      await rig.call("POST", "/api/printer/tool", { command: "target", targets: { tool0: 0 } }),
    ];
    for (const refused of refusals) {
      assert.equal(refused.status, 409);
      assert.deepEqual(refused.body, {
        error: `The printer halted: ${message}`,
        code: "printer_halted",
      });
    }
    const upload = await rig.upload("part.gcode", gcodeFile(10).text, { print: "true" });
    assert.equal(upload.status, 409);
    assert.match(
      upload.body.error,
      /^Stored part\.gcode, but: Cannot print part\.gcode: the printer is Error/,
    );
    assert.equal((await rig.call("GET", "/api/job")).body.state, "Error", "no job to start");
    assert.equal(rig.sim.controls.firmware.state, "halted");
    assert.equal(rig.sim.controls.opens, 1);

    await reconnect(rig);
    assert.equal(rig.sim.controls.opens, 2, "the port was opened again: the board reset");
    assert.equal(rig.sim.controls.firmware.state, "running");
  },
});

Deno.test({
  ...opts,
  name: "a halt (!!) during a print ends it in an error, and a reconnect prints again",
  async fn() {
    await using rig = await startRig({ connectAt: 250000 });
    const file = gcodeFile(200);
    assert.equal((await rig.upload("part.gcode", file.text, { print: "true" })).status, 201);
    let halted = false;
    rig.onceSent(file.lines[49]!, () => {
      rig.sim.controls.halt("bang");
      halted = true;
    });
    await rig.until("the halt", () => halted);
    await rig.until("the error", () => rig.states().at(-1) === "ERROR");
    await rig.until("the print's end", () => rig.printer.job().state === "ERROR");
    assert.deepEqual(rig.states().slice(-2), ["PRINTING", "ERROR"]);
    const current = await rig.current();
    assert.match(current.state as string, /^Error: .*!!/);
    const job = (await rig.call("GET", "/api/job")).body;
    assert.equal(job.state, "Error");
    assert.equal(job.progress.lines, 49);
    assert.deepEqual(rig.accepted(/^G1 /), file.lines.slice(0, 49), "nothing taken after the halt");
    const said = rig.events.flatMap((e) =>
      e.type === "terminal" && e.line.direction === "info" ? [e.line.text] : []
    );
    assert.ok(said.includes("The print failed: The printer halted: !!"), said.join(" | "));
    const refused = await rig.call("POST", "/api/job", { command: "start" });
    assert.equal(refused.status, 409);

    await reconnect(rig);
    assert.equal((await rig.call("POST", "/api/job", { command: "start" })).status, 204);
    await rig.until("the print's end", () => rig.accepted(/^G1 /).length === 249);
    await rig.until("operational", () => rig.states().at(-1) === "OPERATIONAL");
    assert.deepEqual(rig.accepted(/^G1 /).slice(49), file.lines);
  },
});
