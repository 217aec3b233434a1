import assert from "node:assert/strict";
import { SessionStore } from "../../../../lib/host/mod.ts";

Deno.test("sessions expire after their idle lifetime", () => {
  let now = 0;
  const store = new SessionStore({ ttlMs: 1000, now: () => now });
  const s = store.create("u", "stamp");
  now = 900;
  assert.ok(store.get(s.id), "use extends the lifetime");
  now = 1800;
  assert.ok(store.get(s.id));
  now = 2900;
  assert.equal(store.get(s.id), null);
});

Deno.test("sessions end at their absolute lifetime however active they are", () => {
  let now = 0;
  const store = new SessionStore({ ttlMs: 1000, maxAgeMs: 2500, now: () => now });
  const s = store.create("u", "stamp");
  for (now = 500; now < 2500; now += 500) assert.ok(store.get(s.id), `alive at ${now}`);
  assert.equal(store.get(s.id), null, "ended at 2500 although used every 500 ms");
  assert.equal(store.size, 0);
});
