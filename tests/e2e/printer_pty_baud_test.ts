/**
 * A Marlin printer on a real tty (the simulator) connected at the wrong baud rate: it reads as
 * noise, the connect fails with a message that asks about the baud rate, the state is "Offline
 * after error", and the host runs on; the API's auto-baud (a connect without a rate) finds the
 * printer's rate, and `save` stores it.
 */
import assert from "node:assert/strict";
import { startRig } from "./_marlin_rig.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...opts,
  name:
    "a connect at the wrong baud rate ends offline after error with a message about the baud rate; the right rate connects",
  async fn() {
    await using rig = await startRig({ sim: { baudRate: 115200 } });
    const path = rig.sim.path;
    const wrong = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: path,
      baudrate: 250000,
    });
    assert.equal(wrong.status, 504, JSON.stringify(wrong.body));
    const message =
      "The printer did not answer for 3 s: it sent only what the host cannot read (is the baud rate right?)";
    assert.equal(wrong.body.error, message);
    assert.equal(rig.sim.controls.hostBaudRate, 250000, "the tty was set to 250000");
    assert.deepEqual(rig.sim.controls.firmware.commands, [], "nothing was understood");
    const current = await rig.current();
    assert.deepEqual([current.state, current.stateId, current.error], [
      "Offline after error",
      "OFFLINE",
      message,
    ]);
    assert.deepEqual([current.port, current.baudrate], [path, 250000]);
    const refused = await rig.call("POST", "/api/printer/command", { command: "M105" });
    assert.equal(refused.status, 409);
    assert.match(refused.body.error, /not connected/);
    const terminal = (await rig.call("GET", "/api/printer/terminal")).body.lines as {
      text: string;
    }[];
    assert.ok(terminal.some((l) => l.text === `Offline after error: ${message}`));

    const right = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: path,
      baudrate: 115200,
    });
    assert.equal(right.status, 204, JSON.stringify(right.body));
    const after = await rig.current();
    assert.deepEqual([after.state, after.baudrate, after.error], ["Operational", 115200, null]);
  },
});

Deno.test({
  ...opts,
  name: "a connect without a baud rate tries 115200, then 250000, and saves the rate that answered",
  async fn() {
    await using rig = await startRig();
    const connect = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: rig.sim.path,
      save: true,
    });
    assert.equal(connect.status, 204, JSON.stringify(connect.body));
    const info = (await rig.call("GET", "/api/connection")).body;
    assert.deepEqual([info.current.state, info.current.baudrate], ["Operational", 250000]);
    assert.equal(rig.sim.controls.hostBaudRate, 250000);
    assert.deepEqual(
      [info.options.portPreference, info.options.baudratePreference],
      [rig.sim.path, 250000],
    );
    const said = rig.events.flatMap((e) =>
      e.type === "terminal" && e.line.direction === "info" ? [e.line.text] : []
    );
    assert.deepEqual(said.filter((t) => t.startsWith("Connecting")), [
      `Connecting to ${rig.sim.path} at 115200 baud`,
      `Connecting to ${rig.sim.path} at 250000 baud`,
    ]);
  },
});
