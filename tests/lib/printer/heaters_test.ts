import assert from "node:assert/strict";
import { UsageError } from "../../../lib/error.ts";
import { Heaters } from "../../../lib/printer/heaters.ts";

Deno.test("Heaters keep a known target when a report has none, and a history sample per report", () => {
  const h = new Heaters({ now: 5 });
  assert.deepEqual(h.snapshot("OPERATIONAL"), { state: "OPERATIONAL", temperatures: {}, time: 5 });
  h.report({ T0: { actual: 20, target: 210 }, B: { actual: 19 } }, 1000);
  h.report({ T0: { actual: 25 }, B: { actual: 21, target: 60 } }, 2000);
  assert.deepEqual(h.snapshot("PRINTING"), {
    state: "PRINTING",
    temperatures: { T0: { actual: 25, target: 210 }, B: { actual: 21, target: 60 } },
    time: 2000,
  });
  assert.deepEqual(h.history().map((s) => s.time), [1000, 2000]);
});

Deno.test("Heaters take an acknowledged target only for a heater that reported", () => {
  const h = new Heaters({ now: 0 });
  assert.equal(h.setTarget("T0", 200), false);
  h.report({ T0: { actual: 20, target: null } }, 1);
  assert.equal(h.setTarget("T0", 200), true);
  assert.equal(h.snapshot("OPERATIONAL").temperatures.T0?.target, 200);
  assert.equal(h.history()[0]?.temperatures.T0?.target, null, "a sample is not rewritten");
});

Deno.test("Heaters refuse an unknown heater once the printer named its heaters, and forget them on clear", () => {
  const h = new Heaters({ now: 0 });
  h.checkKnown("T9"); // nothing reported yet: any name may be meant
  h.report({ T0: { actual: 20 } }, 1);
  assert.throws(
    () => h.checkKnown("T9"),
    (e) => e instanceof UsageError && /reports T0/.test(e.message),
  );
  h.clear();
  assert.deepEqual(h.snapshot("OFFLINE").temperatures, {});
  assert.equal(h.history().length, 1, "the history stays across connections");
});

Deno.test("Heaters keep a bounded history, dropping the oldest samples and those too old", () => {
  const h = new Heaters({ now: 0, historySamples: 3, historyMaxAgeMs: 10_000 });
  for (let t = 1; t <= 5; t++) h.report({ T0: { actual: t } }, t * 1000);
  assert.deepEqual(h.history().map((s) => s.time), [3000, 4000, 5000]);
  h.report({ T0: { actual: 9 } }, 14_500);
  assert.deepEqual(h.history().map((s) => s.time), [5000, 14_500]);
});
