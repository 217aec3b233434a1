import assert from "node:assert/strict";
import { QueueFullError } from "../../../../lib/printer/marlin/errors.ts";
import { frameLine } from "../../../../lib/printer/marlin/framing.ts";
import { type Sendable, SendQueue } from "../../../../lib/printer/marlin/send_queue.ts";

const cmd = (command: string, internal = false): Sendable => ({ command, internal });

/** Takes every line the window lets go now, as written. */
function drain(queue: SendQueue<Sendable>, sendWaiting = true): string[] {
  const out: string[] = [];
  for (let line = queue.next(sendWaiting); line; line = queue.next(sendWaiting)) {
    out.push(line.text);
  }
  return out;
}

Deno.test("SendQueue numbers from 0, frames M110 with its own number, one line in flight", () => {
  const queue = new SendQueue();
  queue.push(cmd("M110 N0", true));
  queue.push(cmd("G28"));
  assert.deepEqual(drain(queue), ["N0 M110 N0*125"]);
  assert.equal(queue.inFlight, 1);
  assert.equal(queue.ack()?.command, "M110 N0");
  assert.deepEqual(drain(queue), [frameLine(1, "G28")]);
  assert.equal(queue.ack()?.command, "G28");
  assert.deepEqual(drain(queue), []);
});

Deno.test("SendQueue lets maxInFlight lines go before an ok, and one more per ok", () => {
  const queue = new SendQueue({ maxInFlight: 2 });
  for (const c of ["G1 X1", "G1 X2", "G1 X3"]) queue.push(cmd(c));
  assert.deepEqual(drain(queue), [frameLine(0, "G1 X1"), frameLine(1, "G1 X2")]);
  queue.ack();
  assert.deepEqual(drain(queue), [frameLine(2, "G1 X3")]);
});

Deno.test("SendQueue ignores an ok nobody waits for: the window never widens", () => {
  const queue = new SendQueue();
  for (let i = 0; i < 5; i++) assert.equal(queue.ack(), undefined);
  queue.push(cmd("G4 P1"));
  queue.push(cmd("G4 P2"));
  assert.equal(drain(queue).length, 1);
  assert.equal(queue.inFlight, 1);
});

Deno.test("SendQueue puts the host's own commands first and holds user commands while told to", () => {
  const queue = new SendQueue();
  queue.push(cmd("G28"));
  queue.push(cmd("M115", true));
  assert.deepEqual(drain(queue, false), [frameLine(0, "M115")]);
  queue.ack();
  assert.deepEqual(drain(queue, false), [], "the user's G28 waits for the handshake");
  assert.deepEqual(drain(queue, true), [frameLine(1, "G28")]);
});

Deno.test("SendQueue refuses a command beyond its capacity with a QueueFullError, not its own", () => {
  const queue = new SendQueue({ capacity: 2 });
  queue.push(cmd("G1 X1"));
  queue.push(cmd("G1 X2"));
  assert.throws(() => queue.push(cmd("G1 X3")), QueueFullError);
  queue.push(cmd("M105", true));
  assert.equal(queue.waiting, 3);
});

Deno.test("SendQueue sends the lines from a resend request again, with their numbers", () => {
  const queue = new SendQueue({ maxInFlight: 3 });
  for (const c of ["G1 X1", "G1 X2", "G1 X3", "G1 X4"]) queue.push(cmd(c));
  assert.equal(drain(queue).length, 3);
  assert.equal(queue.ack()?.command, "G1 X1");
  assert.equal(queue.resend(1), true);
  assert.equal(queue.inFlight, 0, "the rejected lines left the window");
  assert.deepEqual(drain(queue), [
    frameLine(1, "G1 X2"),
    frameLine(2, "G1 X3"),
    frameLine(3, "G1 X4"),
  ]);
  assert.deepEqual([queue.ack(), queue.ack(), queue.ack()].map((c) => c?.command), [
    "G1 X2",
    "G1 X3",
    "G1 X4",
  ]);
});

Deno.test("SendQueue answers a second request for a lower line from that lower line", () => {
  const queue = new SendQueue({ maxInFlight: 2 });
  for (const c of ["A", "B", "C"]) queue.push(cmd(c));
  drain(queue);
  assert.equal(queue.resend(0), true);
  assert.equal(queue.resend(1), true);
  assert.deepEqual(drain(queue), [frameLine(0, "A"), frameLine(1, "B")]);
});

Deno.test("SendQueue cannot serve a line it does not hold: -1, 10^12, not a number, forgotten", () => {
  const queue = new SendQueue({ historySize: 2 });
  for (const c of ["A", "B", "C"]) {
    queue.push(cmd(c));
    drain(queue);
    queue.ack();
  }
  for (const n of [-1, 1e12, NaN, Infinity, 0.5, 0, 4]) {
    assert.equal(queue.resend(n), false, String(n));
  }
  assert.equal(queue.resend(3), true, "the next line is always served (nothing to resend)");
  assert.deepEqual(drain(queue), []);
  assert.equal(queue.resend(1), true);
  assert.deepEqual(drain(queue), [frameLine(1, "B")]);
});

Deno.test("SendQueue.renumber() sends M110 first, then the lines without their ok, newly numbered", () => {
  const queue = new SendQueue();
  queue.push(cmd("A"));
  drain(queue);
  queue.ack();
  queue.push(cmd("B"));
  assert.deepEqual(drain(queue), [frameLine(1, "B")]);
  queue.renumber(cmd("M110", true));
  assert.deepEqual(drain(queue), ["N2 M110 N2*" + frameLine(2, "M110 N2").split("*")[1]]);
  assert.equal(queue.ack()?.command, "M110");
  assert.deepEqual(drain(queue), [frameLine(3, "B")], "B again; A had its ok");
  assert.equal(queue.resend(1), false, "numbers before the M110 are gone");
});

Deno.test("SendQueue.renumber() again and again does not grow the queue", () => {
  const queue = new SendQueue();
  queue.push(cmd("G28"));
  drain(queue);
  for (let i = 0; i < 50; i++) {
    queue.renumber(cmd("M110", true));
    drain(queue);
  }
  assert.ok(queue.waiting <= 2, `waiting: ${queue.waiting}`);
});

Deno.test("SendQueue.clear() returns everything in flight, to resend or waiting, once each", () => {
  const queue = new SendQueue({ maxInFlight: 2 });
  const items = ["A", "B", "C"].map((c) => cmd(c));
  for (const item of items) queue.push(item);
  drain(queue);
  queue.resend(1);
  assert.deepEqual(queue.clear(), items);
  assert.equal(queue.inFlight + queue.waiting, 0);
  queue.push(cmd("D"));
  assert.deepEqual(drain(queue), [frameLine(2, "D")], "numbering goes on");
  queue.clear(true);
  queue.push(cmd("M110 N0", true));
  assert.deepEqual(drain(queue), ["N0 M110 N0*125"], "a restart numbers from 0");
});

Deno.test("SendQueue refuses options that make no window", () => {
  for (
    const options of [{ maxInFlight: 0 }, { capacity: -1 }, { historySize: 1.5 }, {
      maxInFlight: 4,
      historySize: 2,
    }]
  ) {
    assert.throws(() => new SendQueue(options), RangeError, JSON.stringify(options));
  }
});
