import assert from "node:assert/strict";
import { board, framed } from "./_marlin_board.ts";

Deno.test("a reset prints start and the banner after the boot time and forgets the line number", () => {
  const b = board({ bootMs: 1000 });
  b.send(0, "M110 N0", "G1 X1");
  assert.deepEqual(b.take(), ["ok", "ok"]);
  b.fw.reset();
  assert.equal(b.fw.state, "booting");
  b.clock.advance(500);
  b.send(2, "G1 X2");
  assert.deepEqual(b.take(), [], "a line sent while the board boots is lost");
  b.clock.advance(600);
  const banner = b.take();
  assert.equal(banner[0], "start");
  assert.ok(banner.includes("echo:Marlin 2.1.2"));
  assert.ok(banner.slice(1).every((line) => line.startsWith("echo:")));
  assert.equal(banner.at(-1), "echo:SD card ok");
  b.send(2, "G1 X2");
  assert.deepEqual(b.take(), [
    "Error:Line Number is not Last Line Number+1, Last Line: 0",
    "Resend: 1",
    "ok",
  ]);
  b.fw.close();
});

Deno.test("every accepted line gets one ok, in order, and its command is recorded", () => {
  const b = board();
  b.send(0, "M110 N0", "G28 X", "G1 X10 Y10", "M84");
  b.fw.receive("M117 no number\n");
  b.clock.advance(5000);
  const out = b.take().filter((l) => l === "ok");
  assert.equal(out.length, 5);
  assert.deepEqual(b.fw.commands, ["M110 N0", "G28 X", "G1 X10 Y10", "M84", "M117 no number"]);
  assert.equal(b.fw.lastLine, 3);
  assert.ok(b.fw.transcript.includes(`> ${framed(2, "G1 X10 Y10").trim()}`));
  assert.ok(b.fw.transcript.includes("< ok"));
  b.fw.close();
});

Deno.test("a wrong number or checksum from the host is refused with Error, Resend and ok", () => {
  const b = board();
  b.send(0, "M110 N0", "G1 X1");
  b.take();
  b.fw.receive(framed(3, "G1 X3"));
  assert.deepEqual(b.take(), [
    "Error:Line Number is not Last Line Number+1, Last Line: 1",
    "Resend: 2",
    "ok",
  ]);
  b.fw.receive("N2 G1 X2*0\n");
  assert.deepEqual(b.take(), ["Error:checksum mismatch, Last Line: 1", "Resend: 2", "ok"]);
  b.fw.receive("N2 G1 X2\n");
  assert.deepEqual(b.take(), [
    "Error:No Checksum with line number, Last Line: 1",
    "Resend: 2",
    "ok",
  ]);
  b.send(2, "G1 X2");
  assert.deepEqual(b.take(), ["ok"]);
  b.fw.close();
});

Deno.test("failNext refuses the next lines and drops what arrived with them, as Marlin empties its RX", () => {
  const b = board();
  b.send(0, "M110 N0");
  b.take();
  b.fw.failNext(2);
  b.send(1, "G1 X1", "G1 X2", "G1 X3");
  assert.deepEqual(b.take(), ["Error:checksum mismatch, Last Line: 0", "Resend: 1", "ok"]);
  b.send(1, "G1 X1");
  assert.deepEqual(b.take(), ["Error:checksum mismatch, Last Line: 0", "Resend: 1", "ok"]);
  b.send(1, "G1 X1", "G1 X2", "G1 X3");
  assert.deepEqual(b.take(), ["ok", "ok", "ok"]);
  b.fw.failNext(1, "line-number");
  b.send(4, "G1 X4");
  assert.deepEqual(b.take(), [
    "Error:Line Number is not Last Line Number+1, Last Line: 3",
    "Resend: 4",
    "ok",
  ]);
  assert.deepEqual(b.fw.commands, ["M110 N0", "G1 X1", "G1 X2", "G1 X3"]);
  b.fw.close();
});

Deno.test("resendFrom asks the host for an earlier line and takes the lines again from there", () => {
  const b = board();
  b.send(0, "M110 N0", "G1 X1", "G1 X2", "G1 X3");
  b.take();
  b.fw.resendFrom(2);
  b.send(4, "G1 X4");
  assert.deepEqual(b.take(), [
    "Error:Line Number is not Last Line Number+1, Last Line: 1",
    "Resend: 2",
    "ok",
  ]);
  b.send(2, "G1 X2", "G1 X3", "G1 X4");
  assert.deepEqual(b.take(), ["ok", "ok", "ok"]);
  assert.equal(b.fw.lastLine, 4);
  b.fw.close();
});

Deno.test("busy holds the next command with busy lines for the given time, then runs it", () => {
  const b = board();
  b.fw.holdNext(6);
  b.send(0, "M110 N0", "G1 X1");
  b.clock.advance(5000);
  assert.deepEqual(b.take(), [
    "echo:busy: processing",
    "echo:busy: processing",
    "echo:busy: processing",
  ]);
  b.clock.advance(1100);
  assert.deepEqual(b.take(), ["ok", "ok"]);
  b.fw.close();
});

Deno.test("a halt prints kill() called (or !!) and then answers nothing until a reset", () => {
  const b = board({ bootMs: 0 });
  b.fw.receive("M104 S200\nM155 S1\n");
  b.take();
  b.fw.halt("kill", "Thermal Runaway, system stopped! Heater_ID: 0");
  assert.deepEqual(b.take(), [
    "Error:Thermal Runaway, system stopped! Heater_ID: 0",
    "Error:Printer halted. kill() called!",
  ]);
  assert.equal(b.heaters.hotend.target, 0, "heaters off");
  b.fw.receive("M105\n");
  b.clock.advance(5000);
  assert.deepEqual(b.take(), [], "silence: no ok, no auto-report");
  b.fw.reset();
  b.clock.advance(100);
  assert.equal(b.take()[0], "start");
  b.fw.halt("bang");
  assert.deepEqual(b.take(), ["!!"]);
  assert.equal(b.fw.state, "halted");
  b.fw.close();
});

Deno.test("M112 halts at once, even while a heat wait holds the queue (emergency parser)", () => {
  const b = board();
  b.fw.receive("M109 S200\n");
  b.clock.advance(2000);
  b.take();
  b.fw.receive(framed(7, "M112"));
  assert.deepEqual(b.take(), ["Error:Printer halted. kill() called!"]);
  b.fw.close();
  const slow = board({ capabilities: { EMERGENCY_PARSER: false } });
  slow.fw.receive("G4 S3\nM112\n");
  assert.deepEqual(slow.take(), [], "without the parser, M112 waits its turn");
  slow.clock.advance(3100);
  assert.deepEqual(slow.take(), [
    "echo:busy: processing",
    "echo:busy: processing",
    "ok",
    "Error:Printer halted. kill() called!",
  ]);
  slow.fw.close();
});
