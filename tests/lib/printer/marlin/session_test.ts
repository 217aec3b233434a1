import assert from "node:assert/strict";
import { UsageError } from "../../../../lib/error.ts";
import {
  PrinterDisconnectedError,
  PrinterHaltedError,
  PrinterTimeoutError,
  QueueFullError,
} from "../../../../lib/printer/marlin/errors.ts";
import type { MarlinEvent } from "../../../../lib/printer/marlin/events.ts";
import { frameLine } from "../../../../lib/printer/marlin/framing.ts";
import {
  MarlinSession,
  type MarlinSessionOptions,
} from "../../../../lib/printer/marlin/session.ts";
import { ManualClock } from "../../../_fake_clock.ts";
import { FakeMarlin, settle } from "./_fake_marlin.ts";

/** A session talking to a fake Marlin, its events and clock; `boot` prints `start` at once. */
function setUp(options: MarlinSessionOptions = {}, fake = new FakeMarlin()) {
  const clock = new ManualClock();
  const session = new MarlinSession(fake, { clock, ...options });
  const events: MarlinEvent[] = [];
  session.subscribe((event) => events.push(event));
  const of = <T extends MarlinEvent["type"]>(type: T) =>
    events.filter((e): e is Extract<MarlinEvent, { type: T }> => e.type === type);
  return { fake, clock, session, events, of };
}

async function connected(options: MarlinSessionOptions = {}, fake = new FakeMarlin()) {
  const setup = setUp(options, fake);
  const ready = setup.session.connect();
  fake.boot();
  await ready;
  return setup;
}

/** Whether a promise has settled yet, without waiting for it. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => done = true, () => done = true);
  await settle();
  return done;
}

Deno.test("connect() waits for start, then sends N0 M110 N0 and M115 and is operational", async () => {
  const { fake, session, of } = setUp();
  const ready = session.connect();
  await settle();
  assert.deepEqual(fake.received, [], "nothing is sent before start");
  fake.boot();
  const firmware = await ready;
  assert.deepEqual(fake.received, ["N0 M110 N0*125", frameLine(1, "M115")]);
  assert.equal(firmware.name, "Marlin 2.1.2.1 (Jul 11 2023 12:00:00)");
  assert.deepEqual(firmware.capabilities, { AUTOREPORT_TEMP: false, EMERGENCY_PARSER: true });
  assert.equal(session.state, "operational");
  assert.deepEqual(session.firmware, firmware);
  assert.deepEqual(of("firmware").map((e) => e.firmware), [firmware]);
  assert.deepEqual(of("state").map((e) => e.state), ["operational"]);
  assert.deepEqual(of("echo").map((e) => e.text).slice(0, 1), ["Marlin 2.1.2.1"]);
});

Deno.test("connect() shakes hands after startTimeoutMs when the printer never says start", async () => {
  const { fake, clock, session } = setUp({ startTimeoutMs: 2000 });
  const ready = session.connect();
  clock.advance(1999);
  await settle();
  assert.deepEqual(fake.received, []);
  clock.advance(1);
  await ready;
  assert.equal(fake.received[0], "N0 M110 N0*125");
  assert.equal(session.state, "operational");
});

Deno.test("connect() to a printer that never answers fails with PrinterTimeoutError", async () => {
  const fake = new FakeMarlin();
  fake.silent = true;
  const { clock, session, of } = setUp({ connectTimeoutMs: 5000 }, fake);
  const ready = session.connect();
  const queued = session.send("M105");
  clock.advance(3000);
  await settle();
  assert.deepEqual(fake.received, ["N0 M110 N0*125"], "the user's command waits for the handshake");
  clock.advance(5000);
  await assert.rejects(ready, PrinterTimeoutError);
  await assert.rejects(queued, PrinterTimeoutError);
  await assert.rejects(session.send("M105"), PrinterTimeoutError);
  assert.equal(session.state, "error");
  assert.match(
    of("state").at(-1)!.message!,
    /^The printer did not answer for 5 s: is it switched on, and is the baud rate right\?$/,
  );
});

Deno.test("a handshake that got only bytes without an end of line asks about the baud rate", async () => {
  const fake = new FakeMarlin();
  fake.silent = true;
  const { clock, session, of } = setUp({ startTimeoutMs: 100, connectTimeoutMs: 5000 }, fake);
  const ready = session.connect();
  fake.sayRaw(new Uint8Array([0xfe, 0x80, 0xff, 0x9c, 0xe6, 0x86]));
  await settle();
  clock.advance(100);
  await settle();
  clock.advance(5000);
  await assert.rejects(ready, PrinterTimeoutError);
  assert.equal(
    of("state").at(-1)!.message,
    "The printer did not answer for 5 s: it sent only what the host cannot read (is the baud rate right?)",
  );
});

Deno.test("send() resolves with every line answered to the command, its ok last", async () => {
  const { fake, session } = await connected();
  fake.handlers.set("M20", () => ["Begin file list", "CUBE.GCO 1234", "End file list", "ok"]);
  assert.deepEqual(await session.send("M20 ; list the card"), [
    "Begin file list",
    "CUBE.GCO 1234",
    "End file list",
    "ok",
  ]);
  assert.equal(fake.accepted.at(-1), "M20");
  assert.deepEqual(await session.send("M105"), ["ok T:20.3 /0.0 B:19.2 /0.0 @:0 B@:0"]);
});

Deno.test("send() refuses an empty command or one smuggling a second line, and sends nothing", async () => {
  const { fake, session } = await connected();
  const before = fake.received.length;
  for (const bad of ["", "; comment", "M104 S200\nM112", "G28\r\nM112", "M117 a*b"]) {
    await assert.rejects(session.send(bad), UsageError, JSON.stringify(bad));
  }
  assert.equal(fake.received.length, before);
});

Deno.test("one line in flight: the next command waits for the ok of the one before", async () => {
  const { fake, session } = await connected();
  fake.handlers.set("G28", () => null);
  const home = session.send("G28");
  const poll = session.send("M105");
  await settle();
  assert.equal(fake.received.at(-1), frameLine(2, "G28"));
  fake.say("ok");
  assert.deepEqual(await home, ["ok"]);
  await poll;
  assert.equal(fake.received.at(-1), frameLine(3, "M105"));
});

Deno.test("maxInFlight 2 sends two lines before the first ok", async () => {
  const { fake, session } = await connected({ maxInFlight: 2 });
  fake.handlers.set("G1", () => null);
  const moves = ["G1 X1", "G1 X2", "G1 X3"].map((c) => session.send(c));
  await settle();
  assert.deepEqual(fake.accepted.slice(-2), ["G1 X1", "G1 X2"]);
  fake.say("ok", "ok", "ok");
  await Promise.all(moves);
  assert.equal(fake.accepted.at(-1), "G1 X3");
});

Deno.test("an ok without a request is ignored and never lets a second line go", async () => {
  const { fake, session } = await connected();
  fake.say("ok", "ok", "ok N:99");
  await settle();
  fake.handlers.set("G4", () => null);
  const waits = ["G4 P1", "G4 P2", "G4 P3"].map((c) => session.send(c));
  await settle();
  assert.deepEqual(fake.accepted.slice(-1), ["G4 P1"]);
  assert.equal(fake.accepted.filter((c) => c.startsWith("G4")).length, 1);
  fake.handlers.delete("G4");
  fake.say("ok");
  await Promise.all(waits);
});

Deno.test("a garbled line is sent again with its number when the printer asks, and answers", async () => {
  const { fake, session } = await connected();
  fake.garbleNext();
  assert.deepEqual(await session.send("G28 X"), ["ok"]);
  const sent = frameLine(2, "G28 X");
  assert.deepEqual(fake.received.slice(-2), [sent, sent]);
  assert.deepEqual(fake.accepted.filter((c) => c === "G28 X"), ["G28 X"], "run once");
  await session.send("M400");
  assert.equal(fake.received.at(-1), frameLine(3, "M400"), "numbering goes on");
});

Deno.test("the ok that follows a resend request acknowledges nothing", async () => {
  const { fake, session } = await connected();
  fake.handlers.set("G1", () => null);
  const move = session.send("G1 X5");
  await settle();
  fake.say("Error:checksum mismatch, Last Line: 1", "Resend: 2", "ok");
  assert.equal(await settled(move), false, "still waiting for its own ok");
  assert.equal(fake.received.filter((l) => l === frameLine(2, "G1 X5")).length, 2);
  fake.say("ok");
  assert.deepEqual(await move, ["ok"]);
});

for (const asked of ["-1", "1000000000000", "0"]) {
  Deno.test(`a resend of line ${asked}, which the host does not hold, renumbers with M110`, async () => {
    const { fake, session, of } = await connected({ historySize: 1 });
    let first = true;
    fake.handlers.set("G1", () => {
      if (!first) return ["ok"];
      first = false;
      return [`Error:checksum mismatch, Last Line: 1`, `Resend: ${asked}`, "ok"];
    });
    assert.deepEqual(await session.send("G1 X1"), ["ok"]);
    assert.deepEqual(fake.received.slice(-3), [
      frameLine(2, "G1 X1"),
      frameLine(3, "M110 N3"),
      frameLine(4, "G1 X1"),
    ]);
    assert.match(of("warning")[0]!.message, new RegExp(`line ${asked} again`));
    await session.send("M105");
    assert.equal(fake.received.at(-1), frameLine(5, "M105"));
    assert.equal(session.state, "operational");
  });
}

Deno.test("a long command that answers busy waits past the watchdog until its ok", async () => {
  const { fake, clock, session } = await connected({ answerTimeoutMs: 10_000 });
  fake.handlers.set("G29", () => null);
  const probe = session.send("G29");
  await settle();
  for (let i = 0; i < 5; i++) {
    clock.advance(9000);
    fake.say("echo:busy: processing");
    await settle();
  }
  fake.say("T:44 E:0 B:45");
  await settle();
  clock.advance(9000);
  assert.equal(await settled(probe), false);
  fake.say("Bed X: 0.000 Y: 0.000 Z: 0.120", "ok");
  assert.deepEqual(await probe, ["T:44 E:0 B:45", "Bed X: 0.000 Y: 0.000 Z: 0.120", "ok"]);
  assert.equal(session.state, "operational");
});

Deno.test("silence while a command waits fails it with PrinterTimeoutError; the next line revives", async () => {
  const { fake, clock, session, of } = await connected({ answerTimeoutMs: 10_000 });
  fake.handlers.set("G28", () => null);
  const home = session.send("G28");
  const queued = session.send("M105");
  await settle();
  fake.sayRaw("\uFFFD garbage that means nothing\n");
  await settle();
  clock.advance(10_000);
  await assert.rejects(home, PrinterTimeoutError);
  await assert.rejects(queued, PrinterTimeoutError);
  assert.equal(session.state, "error");
  assert.match(of("state").at(-1)!.message!, /did not answer for 10 s: .* baud rate/);
  fake.say("echo:busy: processing");
  await settle();
  assert.equal(session.state, "operational");
  fake.handlers.delete("G28");
  assert.deepEqual(await session.send("G28"), ["ok"]);
});

Deno.test("'wait' lines of an idle printer do not hide a lost ok from the watchdog", async () => {
  const { fake, clock, session } = await connected({ answerTimeoutMs: 5000 });
  fake.handlers.set("M400", () => null);
  const lost = session.send("M400");
  await settle();
  for (let i = 0; i < 5; i++) {
    fake.say("wait");
    await settle();
    clock.advance(1000);
  }
  await assert.rejects(lost, PrinterTimeoutError);
});

Deno.test("a write that fails closes the session with the reason", async () => {
  const { fake, session, of } = await connected();
  fake.write = () => Promise.reject(new Error("EIO"));
  await assert.rejects(session.send("M105"), PrinterDisconnectedError);
  assert.equal(session.state, "closed");
  assert.equal(of("state").at(-1)!.message, "The line to the printer failed: EIO");
  assert.equal(fake.closed, true);
});

Deno.test("fakeAck() unsticks a command whose ok was lost", async () => {
  const { fake, session } = await connected();
  fake.handlers.set("M400", () => null);
  const wait = session.send("M400");
  const next = session.send("M105");
  await settle();
  session.fakeAck();
  assert.deepEqual(await wait, ["ok"]);
  await next;
  session.fakeAck();
  session.fakeAck();
  assert.equal(session.state, "operational");
});

for (const halt of ["Error:Printer halted. kill() called!", "!!"]) {
  Deno.test(`'${halt}' halts: what waits fails with PrinterHaltedError, nothing more is sent`, async () => {
    const { fake, session, of } = await connected();
    fake.handlers.set("G28", () => null);
    const home = session.send("G28");
    const queued = session.send("M105");
    await settle();
    fake.say(halt);
    await assert.rejects(home, PrinterHaltedError);
    await assert.rejects(queued, PrinterHaltedError);
    await assert.rejects(session.send("M105"), PrinterHaltedError);
    assert.equal(session.state, "halted");
    const sent = fake.received.length;
    fake.say("Resend: 1", "ok");
    await settle();
    assert.equal(fake.received.length, sent, "a halted printer gets nothing, resends neither");
    assert.equal(of("state").at(-1)!.message, halt.replace(/^Error:/, ""));
  });
}

Deno.test("a board restart (start) fails what was in flight and shakes hands again from N0", async () => {
  const { fake, session, of } = await connected();
  fake.handlers.set("G28", () => null);
  const home = session.send("G28");
  await settle();
  fake.boot();
  await assert.rejects(home, PrinterDisconnectedError);
  await settle();
  assert.equal(session.state, "operational");
  assert.deepEqual(of("state").map((e) => e.state), ["operational", "connecting", "operational"]);
  assert.deepEqual(fake.received.slice(-2), ["N0 M110 N0*125", frameLine(1, "M115")]);
  assert.equal(of("firmware").length, 2);
});

Deno.test("a halt names the error the firmware printed just before it", async () => {
  const { fake, session, of } = await connected();
  fake.say(
    "Error:Thermal Runaway, system stopped! Heater_ID: 0",
    "Error:Printer halted. kill() called!",
  );
  await settle();
  assert.equal(session.state, "halted");
  assert.equal(
    of("state").at(-1)!.message,
    "Printer halted. kill() called! (Thermal Runaway, system stopped! Heater_ID: 0)",
  );
  await assert.rejects(session.send("M105"), /Thermal Runaway/);
});

Deno.test("a restart after a halt brings the session back", async () => {
  const { fake, session } = await connected();
  fake.say("!!");
  await settle();
  assert.equal(session.state, "halted");
  fake.boot();
  await settle();
  assert.equal(session.state, "operational");
  assert.deepEqual(await session.send("M105"), ["ok T:20.3 /0.0 B:19.2 /0.0 @:0 B@:0"]);
});

Deno.test("a restart in the middle of the handshake: connect() resolves after the next one", async () => {
  const fake = new FakeMarlin();
  const { session } = setUp({}, fake);
  fake.handlers.set("M115", () => null);
  const ready = session.connect();
  fake.boot();
  await settle();
  fake.handlers.delete("M115");
  fake.boot();
  assert.equal((await ready).name, "Marlin 2.1.2.1 (Jul 11 2023 12:00:00)");
  assert.equal(session.state, "operational");
});

Deno.test("an unplugged printer closes the session: PrinterDisconnectedError for all", async () => {
  const { fake, session, of } = await connected();
  fake.handlers.set("G28", () => null);
  const home = session.send("G28");
  await settle();
  fake.unplug();
  await assert.rejects(home, PrinterDisconnectedError);
  await assert.rejects(session.send("M105"), PrinterDisconnectedError);
  assert.equal(session.state, "closed");
  assert.equal(of("state").at(-1)!.message, "The line to the printer closed");
});

Deno.test("close() rejects what waits, closes the transport and is safe twice", async () => {
  const { fake, session } = await connected();
  fake.handlers.set("G28", () => null);
  const home = assert.rejects(session.send("G28"), PrinterDisconnectedError);
  await session.close();
  await session.close();
  await home;
  assert.equal(fake.closed, true);
  assert.equal(session.state, "closed");
  await assert.rejects(session.connect(), PrinterDisconnectedError);
});

Deno.test("a full queue refuses one more command with QueueFullError", async () => {
  const { fake, session } = await connected({ queueSize: 2 });
  fake.handlers.set("G28", () => null);
  const home = session.send("G28");
  const waiting = [session.send("M105"), session.send("M105")];
  await assert.rejects(session.send("M105"), QueueFullError);
  fake.handlers.delete("G28");
  fake.say("ok");
  await Promise.all([home, ...waiting]);
});

Deno.test("with AUTOREPORT_TEMP the firmware reports (M155 S2): temperatures with targets, power", async () => {
  const fake = new FakeMarlin();
  fake.capabilities.AUTOREPORT_TEMP = true;
  const { clock, of } = await connected({}, fake);
  assert.equal(fake.accepted.at(-1), "M155 S2");
  fake.say(" T:200.00 /210.00 B:60.00 /60.00 @:127 B@:0");
  await settle();
  clock.advance(10_000);
  await settle();
  assert.deepEqual(of("temperatures").map((e) => e.temperatures), [{
    tool0: { actual: 200, target: 210, power: 127 },
    bed: { actual: 60, target: 60, power: 0 },
  }]);
  assert.ok(!fake.accepted.includes("M105"), "no polling");
});

Deno.test("without the capability the host polls M105 on its clock, one poll at a time", async () => {
  const { fake, clock, of } = await connected({ temperatureIntervalSeconds: 3 });
  clock.advance(2999);
  await settle();
  assert.ok(!fake.accepted.includes("M105"));
  clock.advance(1);
  await settle();
  assert.equal(fake.accepted.filter((c) => c === "M105").length, 1);
  assert.equal(of("temperatures").length, 1);
  assert.equal(of("temperatures")[0]!.time, clock.now());
  fake.handlers.set("M105", () => null);
  clock.advance(3000);
  await settle();
  clock.advance(3000);
  clock.advance(3000);
  await settle();
  assert.equal(fake.accepted.filter((c) => c === "M105").length, 2, "no second poll in flight");
});

Deno.test("M155 answered as an unknown command falls back to M105 polling", async () => {
  const fake = new FakeMarlin();
  fake.capabilities.AUTOREPORT_TEMP = true;
  fake.handlers.set("M155", () => ['echo:Unknown command: "M155 S2"', "ok"]);
  const { clock } = await connected({}, fake);
  clock.advance(2000);
  await settle();
  assert.ok(fake.accepted.includes("M105"));
});

Deno.test("echo, printer errors, SD progress and unknown lines reach listeners", async () => {
  const { fake, session, of } = await connected();
  fake.handlers.set("M27", () => ["SD printing byte 1234/56789", "ok"]);
  await session.send("M27");
  fake.say(
    "echo:SD card ok",
    "Error:MINTEMP triggered",
    "X:0.00 Y:0.00",
    'echo:Unknown command: "M9"',
  );
  await settle();
  assert.deepEqual(of("sd"), [{ type: "sd", printing: true, byte: 1234, total: 56789 }]);
  assert.deepEqual(of("echo").slice(-2).map((e) => e.text), [
    "SD card ok",
    'Unknown command: "M9"',
  ]);
  assert.deepEqual(of("printerError").map((e) => e.message), ["MINTEMP triggered"]);
  assert.deepEqual(of("unknown").map((e) => e.text), ["X:0.00 Y:0.00"]);
  const terminal = of("line").map((e) => `${e.direction} ${e.text}`);
  assert.ok(terminal.includes(`sent ${frameLine(2, "M27")}`));
  assert.ok(terminal.includes("received SD printing byte 1234/56789"));
});

Deno.test("a flood without line ends is dropped and reported; the session goes on", async () => {
  const { fake, session, of } = await connected({ maxLineBytes: 4096 });
  const chunk = new Uint8Array(64 * 1024).fill(0x41);
  for (let i = 0; i < 16; i++) fake.sayRaw(chunk);
  await settle();
  fake.sayRaw("\n");
  assert.equal(of("warning").length, 1);
  assert.match(of("warning")[0]!.message, /longer than 4096 bytes/);
  assert.deepEqual(await session.send("M400"), ["ok"]);
  assert.equal(session.state, "operational");
});

Deno.test("invalid UTF-8 from the printer is an unknown line, never a crash", async () => {
  const { fake, session, of } = await connected();
  fake.sayRaw(Uint8Array.of(0xff, 0xfe, 0xc3, 0x28, 0x0a, 0x80, 0x0d, 0x0a));
  await settle();
  assert.deepEqual(of("unknown").map((e) => e.text), ["\uFFFD\uFFFD\uFFFD(", "\uFFFD"]);
  assert.deepEqual(await session.send("M400"), ["ok"]);
});

Deno.test("a listener that throws stops neither the session nor the other listeners", async () => {
  const fake = new FakeMarlin();
  const { session, events } = setUp({}, fake);
  session.subscribe(() => {
    throw new Error("listener bug");
  });
  const ready = session.connect();
  fake.boot();
  await ready;
  assert.ok(events.length > 0);
  assert.deepEqual(await session.send("M400"), ["ok"]);
});

Deno.test("an answer flood is cut at 1000 lines per command", async () => {
  const { fake, session } = await connected();
  fake.handlers.set("M20", () => [...Array.from({ length: 5000 }, (_, i) => `FILE${i}.GCO`), "ok"]);
  const answer = await session.send("M20");
  assert.equal(answer.length, 1001);
  assert.equal(answer.at(-1), "ok");
});
