import assert from "node:assert/strict";
import { feedPrinterPush } from "../../../../lib/host/printer/push_feed.ts";
import { PushHub } from "../../../../lib/host/push/mod.ts";
import type { PrinterAccess, PrinterEvent, TerminalLine } from "../../../../lib/printer/printer.ts";
import { FakeClock } from "../_helpers.ts";

/** A printer whose events the test emits, and a hub whose messages it reads. */
function setup() {
  const clock = new FakeClock();
  let emit: (event: PrinterEvent) => void = () => {};
  const printer = {
    subscribe(listener: (event: PrinterEvent) => void) {
      emit = listener;
      return () => emit = () => {};
    },
  } as unknown as PrinterAccess;
  const hub = new PushHub();
  const status: Record<string, unknown>[] = [];
  const none: string[] = [];
  hub.add({ send: (t) => status.push(JSON.parse(t)), permissions: ["STATUS"] });
  hub.add({ send: (t) => none.push(t), permissions: null });
  const stop = feedPrinterPush(printer, hub, { clock });
  const line = (text: string): TerminalLine => ({ time: clock.now(), direction: "received", text });
  return { clock, emit: (e: PrinterEvent) => emit(e), status, none, stop, line };
}

const data = (
  message: Record<string, unknown>,
) => (message.plugin as { plugin: string; data: Record<string, unknown> });

Deno.test("feedPrinterPush() sends a connection change and its lines as one host message at once", () => {
  const t = setup();
  t.emit({
    type: "connection",
    status: {
      state: "OFFLINE",
      port: "/dev/ttyUSB0",
      baudrate: 115200,
      error: "No port",
      firmware: null,
    },
  });
  t.emit({ type: "terminal", line: t.line("Offline after error: No port") });
  t.emit({ type: "temperatures", snapshot: { state: "OFFLINE", temperatures: {}, time: 0 } });
  assert.equal(t.status.length, 0, "gathered until the timer runs");
  t.clock.advance(0);
  assert.equal(t.status.length, 1);
  assert.equal(t.none.length, 0, "only to clients that authenticated with STATUS");
  const msg = data(t.status[0]!);
  assert.equal(msg.plugin, "host");
  assert.deepEqual(msg.data, {
    type: "printer",
    connection: {
      state: "Offline after error",
      stateId: "OFFLINE",
      port: "/dev/ttyUSB0",
      baudrate: 115200,
      printerProfile: "_default",
      error: "No port",
      firmware: null,
    },
    lines: [t.line("Offline after error: No port")],
  });
  t.stop();
});

Deno.test("feedPrinterPush() sends a chatty printer at most one message per 250 ms of at most 100 lines", () => {
  const t = setup();
  for (let i = 0; i < 250; i++) t.emit({ type: "terminal", line: t.line(`ok ${i}`) });
  t.clock.advance(0);
  const first = data(t.status[0]!).data;
  assert.equal((first.lines as TerminalLine[]).length, 100);
  assert.equal((first.lines as TerminalLine[])[0]!.text, "ok 150", "the newest lines");
  assert.equal(first.skipped, 150);
  const again = t.line("ok again");
  t.emit({ type: "terminal", line: again });
  t.clock.advance(249);
  assert.equal(t.status.length, 1, "not before 250 ms since the last message");
  t.clock.advance(1);
  assert.equal(t.status.length, 2);
  assert.deepEqual(data(t.status[1]!).data, { type: "printer", lines: [again] });
  t.stop();
});

Deno.test("feedPrinterPush()'s stop cancels what is gathered and sends nothing more", () => {
  const t = setup();
  t.emit({ type: "terminal", line: t.line("ok") });
  t.stop();
  t.clock.advance(1000);
  t.emit({ type: "terminal", line: t.line("late") });
  t.clock.advance(1000);
  assert.equal(t.status.length, 0);
  assert.equal(t.clock.timerCount, 0);
});
