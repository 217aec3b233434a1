import assert from "node:assert/strict";
import { type OutboundMessage, OutboundQueue } from "../../../plugins/temp_eta/mqtt_queue.ts";

const msg = (n: number, qos: 0 | 1 | 2 = 1): OutboundMessage => ({
  topic: `t/${n}`,
  payload: String(n),
  qos,
  retain: false,
});

Deno.test("OutboundQueue holds QoS 1 and 2 messages in order and drops QoS 0 ones", () => {
  const q = new OutboundQueue(10);
  q.hold(msg(1));
  q.hold(msg(2, 0));
  q.hold(msg(3, 2));
  assert.deepEqual([q.size, q.dropped], [2, 1]);
  assert.deepEqual(q.drain().map((m) => m.topic), ["t/1", "t/3"]);
  assert.equal(q.size, 0);
});

Deno.test("OutboundQueue keeps its limit by dropping the oldest, and a retry goes first", () => {
  const q = new OutboundQueue(3);
  for (let i = 1; i <= 5; i++) q.hold(msg(i));
  assert.deepEqual([q.size, q.dropped], [3, 2]);
  q.retry(msg(0));
  assert.equal(q.dropped, 3, "no room for the retry either");
  const r = new OutboundQueue(3);
  r.hold(msg(2));
  r.retry(msg(1));
  assert.deepEqual(r.drain().map((m) => m.topic), ["t/1", "t/2"]);
});

Deno.test("OutboundQueue.discard() counts what it gives up", () => {
  const q = new OutboundQueue(10);
  q.hold(msg(1));
  q.hold(msg(2));
  q.discard();
  assert.deepEqual([q.size, q.dropped], [0, 2]);
});

Deno.test("OutboundQueue.restore() puts saved messages first, within the limit, counting the rest", () => {
  const q = new OutboundQueue(4);
  q.hold(msg(10));
  q.hold(msg(11));
  assert.equal(q.restore([msg(1), msg(2), msg(3), msg(4, 0)]), 2);
  assert.deepEqual(q.items().map((m) => m.topic), ["t/2", "t/3", "t/10", "t/11"]);
  assert.deepEqual([q.size, q.dropped], [4, 2]);
  q.lose(3);
  assert.equal(q.dropped, 5);
});
