import assert from "node:assert/strict";
import { ConnectionSlots } from "../../../lib/http/slots.ts";

Deno.test("ConnectionSlots caps connections per key and overall, and counts each release once", () => {
  const slots = new ConnectionSlots({ perKey: 2, total: 3 });
  const a1 = slots.take("a")!;
  slots.take("a");
  assert.equal(slots.take("a"), null, "the per-key cap");
  slots.take("b");
  assert.equal(slots.take("c"), null, "the total cap");
  a1.release();
  a1.release();
  assert.equal(slots.size, 2);
  assert.equal(slots.count("a"), 1);
  assert.ok(slots.take("c"));
});

Deno.test("ConnectionSlots moves a slot to a key known later only when that key has room", () => {
  const slots = new ConnectionSlots({ perKey: 1, total: 5 });
  slots.take("user:alice");
  const anon = slots.take("anon:127.0.0.1")!;
  assert.equal(anon.move("user:alice"), false);
  assert.equal(anon.key, "anon:127.0.0.1");
  assert.equal(anon.move("user:bob"), true);
  assert.deepEqual([slots.count("anon:127.0.0.1"), slots.count("user:bob"), slots.size], [0, 1, 2]);
  anon.release();
  assert.equal(anon.move("user:carol"), false, "a released slot moves nowhere");
  assert.equal(slots.size, 1);
});

Deno.test("ConnectionSlots refuses limits that are not positive integers", () => {
  assert.throws(() => new ConnectionSlots({ perKey: 0, total: 1 }), /'perKey'/);
  assert.throws(() => new ConnectionSlots({ perKey: 1, total: 1.5 }), /'total'/);
});
