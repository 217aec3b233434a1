import assert from "node:assert/strict";
import { sessionTiming } from "../../../../lib/printer/marlin/session_options.ts";
import { ManualClock } from "../../../_fake_clock.ts";

Deno.test("sessionTiming fills in the waits and report interval a session uses by default", () => {
  const t = sessionTiming({});
  assert.deepEqual(
    [t.startTimeoutMs, t.connectTimeoutMs, t.answerTimeoutMs, t.reportSeconds],
    [3000, 10_000, 30_000, 2],
  );
});

Deno.test("sessionTiming keeps the given clock and waits", () => {
  const clock = new ManualClock();
  const t = sessionTiming({
    clock,
    startTimeoutMs: 5,
    answerTimeoutMs: 7,
    temperatureIntervalSeconds: 4,
  });
  assert.equal(t.clock, clock);
  assert.deepEqual([t.startTimeoutMs, t.answerTimeoutMs, t.reportSeconds], [5, 7, 4]);
});

Deno.test("sessionTiming refuses a report interval M155 cannot take", () => {
  for (const seconds of [0, 0.5, -1, Number.NaN]) {
    assert.throws(() => sessionTiming({ temperatureIntervalSeconds: seconds }), RangeError);
  }
});
