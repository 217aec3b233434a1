/**
 * Printers that never answer, and ports that are not there, through the host's connection API on
 * real ttys: a pseudo-terminal with nothing behind it, and a Marlin board (the simulator) that
 * hung and does not reset when the port opens. Each ends "Offline after error" with a message
 * that says what to check, commands are refused as "not connected", and the host runs on.
 */
import assert from "node:assert/strict";
import { openPty } from "../lib/printer/serial/_pty.ts";
import { type Rig, startRig } from "./_marlin_rig.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const SILENT = "The printer did not answer for 3 s: is it switched on, and is the baud rate right?";

/** Connects `port` through the API and checks the failure and what GET /api/connection shows. */
async function connectFails(rig: Rig, port: string, status: number, message: string | RegExp) {
  const reply = await rig.call("POST", "/api/connection", {
    command: "connect",
    port,
    baudrate: 250000,
  });
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  if (typeof message === "string") assert.equal(reply.body.error, message);
  else assert.match(reply.body.error, message);
  const current = await rig.current();
  assert.deepEqual([current.state, current.stateId, current.port, current.error], [
    "Offline after error",
    "OFFLINE",
    port,
    reply.body.error,
  ]);
  const refused = await rig.call("POST", "/api/printer/command", { command: "M105" });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error, "Cannot talk to the printer: it is not connected");
}

Deno.test({
  ...opts,
  name:
    "a tty with nothing behind it ends offline after error with a message that says what to check",
  async fn() {
    await using rig = await startRig();
    await using pty = await openPty();
    await connectFails(rig, pty.path, 504, SILENT);
    assert.match(await pty.received("M110"), /^N0 M110 N0\*125\n$/, "the handshake, once");
  },
});

Deno.test({
  ...opts,
  name: "a board that hung never answers the handshake; once reset, it connects",
  async fn() {
    await using rig = await startRig({ sim: { resetOnOpen: false } });
    rig.sim.controls.halt(); // nobody listens: it is silent from now on
    await connectFails(rig, rig.sim.path, 504, SILENT);
    assert.equal(rig.sim.controls.hostBaudRate, 250000, "the right rate: the silence is the hang");
    assert.deepEqual(rig.sim.controls.firmware.commands, []);

    rig.sim.controls.reset(); // the reset button
    const connect = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: rig.sim.path,
      baudrate: 250000,
    });
    assert.equal(connect.status, 204, JSON.stringify(connect.body));
    const current = await rig.current();
    assert.deepEqual([current.state, current.error], ["Operational", null]);
  },
});

Deno.test({
  ...opts,
  name:
    "a port that does not exist, or is no serial port, is named in the message on the connection",
  async fn() {
    await using rig = await startRig();
    const missing = "/dev/ttyUSB_localbench_none";
    await connectFails(rig, missing, 404, new RegExp(`^No serial port at ${missing}\\. `));
    const file = await Deno.makeTempFile({ prefix: "lb_not_a_tty_" });
    try {
      await connectFails(rig, file, 400, `${file} is not a serial port: it is a regular file`);
    } finally {
      await Deno.remove(file);
    }
    // The host runs on: the simulator connects.
    const connect = await rig.call("POST", "/api/connection", {
      command: "connect",
      port: rig.sim.path,
      baudrate: 250000,
    });
    assert.equal(connect.status, 204, JSON.stringify(connect.body));
  },
});
