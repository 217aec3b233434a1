import assert from "node:assert/strict";
import { EventHub } from "../../../lib/dashboard/events.ts";

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
