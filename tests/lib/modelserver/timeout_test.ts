import assert from "node:assert/strict";
import { Watchdog, withTimeout } from "../../../lib/modelserver/timeout.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("Watchdog allows the first-byte time first, then the idle time between bytes", async () => {
  const dog = new Watchdog(60, undefined, { idleMs: 400 });
  await sleep(30);
  dog.touch(); // the first byte: from now on 400 ms of silence are allowed
  await sleep(120);
  assert.equal(dog.signal.aborted, false);
  assert.equal(dog.ms, 400);
  dog.clear();
  const strict = new Watchdog(40, undefined, { idleMs: 400 });
  await sleep(120);
  assert.equal(strict.timedOut, true);
  assert.equal(strict.ms, 40);
  strict.clear();
});

Deno.test("Watchdog tells the wait reporter every second and clears the line on activity", async () => {
  const seen: [string | null, number][] = [];
  const dog = new Watchdog(5000, undefined, {
    what: "list models",
    onWait: (what, s) => void seen.push([what, s]),
  });
  await sleep(2200);
  dog.touch();
  dog.clear();
  assert.deepEqual(seen, [["list models", 1], ["list models", 2], [null, 0]]);
});

Deno.test("withTimeout() reports the wait of a promise-based call and stops when it settles", async () => {
  const seen: [string | null, number][] = [];
  const value = await withTimeout(
    sleep(1200).then(() => 7),
    5000,
    () => new Error("late"),
    undefined,
    {
      what: "load 'm'",
      onWait: (what, s) => void seen.push([what, s]),
    },
  );
  assert.equal(value, 7);
  assert.deepEqual(seen, [["load 'm'", 1], [null, 0]]);
});

Deno.test("the watchdog fires after the idle time, not while it is touched", async () => {
  const dog = new Watchdog(60);
  try {
    for (let i = 0; i < 8; i++) {
      await sleep(20);
      dog.touch();
    }
    assert.equal(dog.signal.aborted, false, "160 ms of activity every 20 ms");
    await sleep(150);
    assert.equal(dog.signal.aborted, true);
    assert.equal(dog.timedOut, true);
    assert.equal((dog.signal.reason as DOMException).name, "TimeoutError");
  } finally {
    dog.clear();
  }
});

Deno.test("a watchdog whose idle time is shorter than its first-byte time keeps the idle time after a byte", async () => {
  const dog = new Watchdog(5000, undefined, { idleMs: 40 });
  try {
    dog.touch();
    await sleep(150);
    assert.equal(dog.timedOut, true);
  } finally {
    dog.clear();
  }
});

Deno.test("a cleared watchdog never fires and touching it arms nothing", async () => {
  const dog = new Watchdog(20);
  dog.clear();
  dog.touch();
  await sleep(60);
  assert.equal(dog.signal.aborted, false);
});

Deno.test("the outer signal aborts the watchdog with its reason", () => {
  const outer = new AbortController();
  const dog = new Watchdog(10_000, outer.signal);
  outer.abort("stop");
  assert.equal(dog.signal.reason, "stop");
  assert.equal(dog.timedOut, false);
  dog.clear();
});
