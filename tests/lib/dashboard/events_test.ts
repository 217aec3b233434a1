import assert from "node:assert/strict";
import { EventHub, STREAMS_PER_CLIENT, STREAMS_TOTAL } from "../../../lib/dashboard/events.ts";

Deno.test("EventHub replays a bounded backlog and numbers every event", () => {
  const hub = new EventHub<string>({ backlog: 2 });
  hub.publish("a");
  hub.publish("b");
  hub.publish("c");
  const seen: string[] = [];
  const off = hub.subscribe((e) => seen.push(`${e.id}:${e.event}`));
  hub.publish("d");
  off();
  hub.publish("e");
  assert.deepEqual(seen, ["2:b", "3:c", "4:d"]);
  assert.deepEqual(hub.since(4).map((e) => e.event), ["e"]);
  const bad = () => {
    throw new Error("subscriber failed");
  };
  hub.subscribe(bad, null);
  const other: string[] = [];
  hub.subscribe((e) => other.push(e.event), null);
  hub.publish("f");
  assert.deepEqual(other, ["f"]);
  assert.equal(hub.size, 1);
});

Deno.test("EventHub caps its streams per client and overall", () => {
  const hub = new EventHub<string>({ streams: { perKey: 1, total: 2 } });
  const a = hub.slots.take("127.0.0.1");
  assert.ok(a);
  assert.equal(hub.slots.take("127.0.0.1"), null);
  assert.ok(hub.slots.take("127.0.0.2"));
  assert.equal(hub.slots.take("127.0.0.3"), null, "the total cap");
  a.release();
  assert.ok(hub.slots.take("127.0.0.3"));
  assert.equal(new EventHub().slots.limits.perKey, STREAMS_PER_CLIENT);
  assert.equal(new EventHub().slots.limits.total, STREAMS_TOTAL);
});
