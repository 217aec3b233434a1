import assert from "node:assert/strict";
import { RetainedRecord, statusTopic } from "../../../plugins/temp_eta/mqtt_retained.ts";

const at = (broker: string, prefix: string, leaf: string) => ({
  broker,
  prefix,
  topic: `${prefix}/${leaf}`,
});

Deno.test("RetainedRecord keeps a topic once per broker and prefix, and forgets a cleared one", () => {
  const r = new RetainedRecord();
  assert.equal(r.add(at("A", "p", "bed")), true);
  assert.equal(r.add(at("A", "p", "bed")), false);
  assert.equal(r.add(at("B", "p", "bed")), true);
  assert.equal(r.remove(at("A", "p", "bed")), true);
  assert.equal(r.remove(at("A", "p", "bed")), false);
  assert.deepEqual(r.list(), [at("B", "p", "bed")]);
  assert.deepEqual(new RetainedRecord(r.list()).list(), r.list());
});

Deno.test("RetainedRecord.stale() names what retain off or another prefix leaves behind on a broker", () => {
  const r = new RetainedRecord([
    at("A", "p", "status"),
    at("A", "p", "bed"),
    at("A", "p", "bed/state_change"),
    // A heater named like another prefix's path: told apart by the prefix it was published under.
    at("A", "p/x", "status"),
    at("B", "p", "bed"),
  ]);
  const topics = (broker: string, prefix: string, retain: boolean) =>
    r.stale(broker, prefix, retain).map((t) => t.topic);
  assert.deepEqual(topics("A", "p", true), ["p/x/status"]);
  assert.deepEqual(topics("A", "p", false), ["p/bed", "p/bed/state_change", "p/x/status"]);
  assert.deepEqual(topics("A", "p/x", true), ["p/status", "p/bed", "p/bed/state_change"]);
  assert.deepEqual(topics("B", "q", false), ["p/bed"]);
  assert.equal(statusTopic("p/x"), "p/x/status");
});
