import assert from "node:assert/strict";
import { ConflictError, NotFoundError, UsageError } from "../../../lib/error.ts";
import type { PrinterEvent } from "../../../lib/printer/printer.ts";
import { PrinterService } from "../../../lib/printer/service.ts";
import { stateText } from "../../../lib/host/printer/state_text.ts";
import { ManualClock } from "../../_fake_clock.ts";
import { FakeMarlin, settle } from "./marlin/_fake_marlin.ts";

/** A service whose serial ports are fake Marlins; `opened` holds each one opened. */
function setUp(open?: (path: string) => Promise<FakeMarlin>) {
  const clock = new ManualClock();
  const opened: FakeMarlin[] = [];
  const service = new PrinterService({
    clock,
    listPorts: () => Promise.resolve(["/dev/ttyUSB0"]),
    openTransport: async (path) => {
      const fake = open ? await open(path) : new FakeMarlin();
      opened.push(fake);
      return fake;
    },
    session: { startTimeoutMs: 10, temperatureIntervalSeconds: 1 },
  });
  const events: PrinterEvent[] = [];
  service.subscribe((e) => events.push(e));
  const states = () => events.flatMap((e) => e.type === "state" ? [e.state] : []);
  return { clock, service, opened, events, states };
}

/** Connects while moving the manual clock past the session's wait for `start`. */
async function connect(s: ReturnType<typeof setUp>, port = "/dev/ttyUSB0"): Promise<void> {
  const done = s.service.connect({ port, baudrate: 115200 });
  for (let i = 0; i < 10; i++) {
    await settle();
    s.clock.advance(10);
  }
  await done;
}

Deno.test("PrinterService connects to a Marlin printer, reads its temperatures and sets targets", async () => {
  const s = setUp();
  try {
    await connect(s);
    assert.deepEqual(s.states(), ["CONNECTING", "OPERATIONAL"]);
    const status = s.service.connection();
    assert.equal(status.port, "/dev/ttyUSB0");
    assert.equal(status.firmware?.name, "Marlin 2.1.2.1 (Jul 11 2023 12:00:00)");
    s.clock.advance(1000);
    await settle();
    assert.deepEqual(s.service.snapshot().temperatures.tool0, { actual: 20.3, target: 0 });
    assert.equal(s.service.history().length, 1);
    await s.service.setTargets({ tool0: 210, bed: 60 });
    assert.deepEqual(s.opened[0]!.accepted.slice(-2), ["M104 T0 S210", "M140 S60"]);
    assert.ok(
      s.service.terminal().some((l) => l.direction === "sent" && / M140 S60\*/.test(l.text)),
    );
    await assert.rejects(s.service.setTargets({ nozzle: 200 }), UsageError);
  } finally {
    await s.service.close();
  }
});

Deno.test("PrinterService leaves a port that cannot be opened offline, with the reason", async () => {
  const s = setUp(() =>
    Promise.reject(new NotFoundError("Cannot open '/dev/ttyUSB9': no such port"))
  );
  await assert.rejects(
    s.service.connect({ port: "/dev/ttyUSB9", baudrate: 115200 }),
    NotFoundError,
  );
  const status = s.service.connection();
  assert.equal(status.state, "OFFLINE");
  assert.match(status.error ?? "", /no such port/);
  assert.equal(stateText(status), "Offline after error");
  assert.deepEqual(s.states(), ["CONNECTING", "OFFLINE"]);
  await assert.rejects(s.service.commands(["M105"]), ConflictError);
  await assert.rejects(
    s.service.connect({ port: "/dev/ttyUSB0", baudrate: 1234 }),
    (e: unknown) => e instanceof UsageError && /baud/.test(e.message),
  );
});

Deno.test("PrinterService goes offline after error when the printer is unplugged, and to ERROR on a halt", async () => {
  const s = setUp();
  try {
    await connect(s);
    s.opened[0]!.say("Error:Printer halted. kill() called!");
    await settle();
    assert.equal(s.service.connection().state, "ERROR");
    assert.match(stateText(s.service.connection()), /^Error: .*halted/i);
    s.opened[0]!.unplug();
    await settle();
    const status = s.service.connection();
    assert.equal(status.state, "OFFLINE");
    assert.ok(status.error, "the reason stays while offline");
    assert.equal(Object.keys(s.service.snapshot().temperatures).length, 0);
  } finally {
    await s.service.close();
  }
});

Deno.test("PrinterService shakes hands again after a board restart and keeps what the firmware told", async () => {
  const s = setUp();
  try {
    await connect(s);
    s.opened[0]!.boot();
    await settle();
    const status = s.service.connection();
    assert.deepEqual(s.states(), ["CONNECTING", "OPERATIONAL", "CONNECTING", "OPERATIONAL"]);
    assert.equal(status.error, null);
    assert.equal(status.firmware?.name, "Marlin 2.1.2.1 (Jul 11 2023 12:00:00)");
  } finally {
    await s.service.close();
  }
});

Deno.test("PrinterService lists the serial ports and VIRTUAL, and drives the virtual printer", async () => {
  const s = setUp();
  try {
    assert.deepEqual(await s.service.ports(), ["/dev/ttyUSB0", "VIRTUAL"]);
    await s.service.connect({ port: "VIRTUAL", baudrate: 115200 });
    assert.equal(s.service.connection().state, "OPERATIONAL");
    await s.service.setTargets({ tool0: 200 });
    s.clock.advance(60_000);
    const tool0 = s.service.snapshot().temperatures.tool0!;
    assert.equal(tool0.target, 200);
    assert.ok(tool0.actual > 150 && tool0.actual < 200, `heating: ${tool0.actual}`);
    assert.ok(s.service.history().length >= 50, "a sample every simulated second");
    await s.service.disconnect();
    assert.equal(s.service.connection().state, "OFFLINE");
    assert.equal(s.service.connection().error, null, "a disconnect is no error");
  } finally {
    await s.service.close();
  }
});
