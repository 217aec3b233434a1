import assert from "node:assert/strict";
import { createSwitchLimiter, RETRY_MARGIN_MS } from "../../../plugins/branchplus/rate_limit.ts";
import { FakeClock } from "./fakes.ts";

Deno.test("createSwitchLimiter() makes a switched channel wait the interval, others not", () => {
  const clock = new FakeClock();
  const limiter = createSwitchLimiter({ clock, intervalMs: () => 3000 });
  assert.equal(limiter.remaining("usb:1"), 0);
  limiter.record("usb:1");
  clock.advance(1000);
  assert.equal(limiter.remaining("usb:1"), 2000);
  assert.equal(limiter.remaining("usb:2"), 0);
  clock.advance(2000);
  assert.equal(limiter.remaining("usb:1"), 0);
});

Deno.test("defer() keeps one retry timer at the earliest due time", () => {
  const clock = new FakeClock();
  const limiter = createSwitchLimiter({ clock, intervalMs: () => 3000 });
  const calls: string[] = [];
  limiter.defer(2000, () => calls.push("late"));
  limiter.defer(500, () => calls.push("early"));
  limiter.defer(1500, () => calls.push("middle"));
  assert.deepEqual(clock.pendingDelays(), [500 + RETRY_MARGIN_MS]);
  assert.equal(limiter.pending, true);
  clock.advance(500 + RETRY_MARGIN_MS);
  assert.deepEqual(calls, ["early"]);
  assert.equal(limiter.pending, false);
});

Deno.test("reset() cancels the pending retry and forgets switch times", () => {
  const clock = new FakeClock();
  const limiter = createSwitchLimiter({ clock, intervalMs: () => 3000 });
  limiter.record("usb:1");
  limiter.defer(100, () => assert.fail("retry must not run"));
  limiter.reset();
  clock.advance(10_000);
  assert.equal(limiter.remaining("usb:1"), 0);
  assert.deepEqual(clock.pendingDelays(), []);
});
