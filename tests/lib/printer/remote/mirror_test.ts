import assert from "node:assert/strict";
import type { PrinterView } from "../../../../lib/printer/remote/protocol.ts";
import { applyTail, offlineView, PrinterMirror } from "../../../../lib/printer/remote/mirror.ts";

function printing(): PrinterView {
  const temperatures = { tool0: { actual: 200, target: 210 } };
  return {
    connection: {
      state: "PRINTING",
      port: "/dev/ttyUSB0",
      baudrate: 115200,
      error: null,
      firmware: null,
    },
    snapshot: { state: "PRINTING", temperatures, time: 5000 },
    job: {
      state: "PRINTING",
      file: { name: "a.gcode", size: 10, origin: "local" },
      progress: { completion: 50, filepos: 5, lines: 1, printTime: 3, printTimeLeft: 3 },
    },
    history: [{ time: 4000, temperatures }, { time: 5000, temperatures }],
    terminal: [{ time: 4000, direction: "sent", text: "G1 X1" }],
  };
}

Deno.test("applyTail() appends and keeps the newest entries up to the size", () => {
  assert.deepEqual(applyTail([], { append: [1], size: 5 }), [1]);
  assert.deepEqual(applyTail([1, 2], { append: [3], size: 2 }), [2, 3]);
  assert.deepEqual(applyTail([1, 2], { append: [], size: 1 }), [2]);
  assert.deepEqual(applyTail([1, 2], { append: [], size: 0 }), [], "a cleared tail");
  assert.deepEqual(applyTail([1, 2], { append: [2, 3], size: 9 }, (n) => n > 2), [1, 2, 3]);
});

Deno.test("a mirror starts offline, knowing nothing", () => {
  const mirror = new PrinterMirror();
  assert.deepEqual(mirror.view, offlineView());
  assert.equal(mirror.view.connection.state, "OFFLINE");
  assert.deepEqual(mirror.view.history, []);
});

Deno.test("a full state replaces the mirror and tells what changed as events", () => {
  const mirror = new PrinterMirror();
  const events = mirror.replace(printing());
  assert.deepEqual(events.map((e) => e.type), ["connection", "state", "temperatures", "job"]);
  assert.deepEqual(events[1], { type: "state", state: "PRINTING", previous: "OFFLINE" });
  assert.deepEqual(mirror.view, printing());
  assert.deepEqual(mirror.replace(printing()), [], "the same state again: nothing to tell");
  const paused = printing();
  paused.snapshot.state = "PAUSED";
  assert.deepEqual(mirror.replace(paused), [{
    type: "state",
    state: "PAUSED",
    previous: "PRINTING",
  }]);
});

Deno.test("an update replaces the small parts and appends to the tails", () => {
  const mirror = new PrinterMirror();
  mirror.replace(printing());
  const next = printing();
  next.snapshot.time = 6000;
  const sample = { time: 6000, temperatures: next.snapshot.temperatures };
  mirror.update({
    connection: next.connection,
    snapshot: next.snapshot,
    job: next.job,
    // The 5000 sample again (a client that joined after it was sent): not taken twice.
    history: { append: [printing().history[1]!, sample], size: 2 },
  });
  assert.equal(mirror.view.snapshot.time, 6000);
  assert.deepEqual(mirror.view.history.map((s) => s.time), [5000, 6000]);
  assert.equal(mirror.view.terminal.length, 1, "no terminal update: the tail stays");
  const line = { time: 6000, direction: "received" as const, text: "ok" };
  const { connection, snapshot, job } = next;
  mirror.update({ connection, snapshot, job, terminal: { append: [line], size: 1 } });
  assert.deepEqual(mirror.view.terminal, [line]);
  assert.deepEqual(mirror.view.history.map((s) => s.time), [5000, 6000]);
});
