import assert from "node:assert/strict";
import {
  isTemperatureReport,
  parseTemperatures,
  type Temperatures,
} from "../../../../lib/printer/marlin/temperatures.ts";

const CASES: [string, string, Temperatures][] = [
  ["an auto-report of Marlin 2 (leading space)", " T:200.00 /210.00 B:60.00 /60.00 @:127 B@:0", {
    tool0: { actual: 200, target: 210, power: 127 },
    bed: { actual: 60, target: 60, power: 0 },
  }],
  [
    "two tools, a chamber, powers per tool",
    "T:20.3 /0.0 B:19.2 /0.0 C:25.1 /40.0 T0:20.3 /0.0 T1:20.6 /180.0 @:0 B@:0 C@:12 @0:0 @1:90",
    {
      tool0: { actual: 20.3, target: 0, power: 0 },
      tool1: { actual: 20.6, target: 180, power: 90 },
      bed: { actual: 19.2, target: 0, power: 0 },
      chamber: { actual: 25.1, target: 40, power: 12 },
    },
  ],
  ["a blocking heat-up of old firmware (no targets)", "T:44 E:0 B:45", {
    tool0: { actual: 44, target: null, power: null },
    bed: { actual: 45, target: null, power: null },
  }],
  ["a blocking heat-up of the second tool", "T:150.2 E:1 W:?", {
    tool1: { actual: 150.2, target: null, power: null },
  }],
  ["spaces around the slash, a probe and ambient sensor left out", "T: 21.5 / 0 P:22.1 A:19.0", {
    tool0: { actual: 21.5, target: 0, power: null },
  }],
  ["a disconnected thermistor reads negative", "T:-14.8 /0.0 B:19.0 /0.0", {
    tool0: { actual: -14.8, target: 0, power: null },
    bed: { actual: 19, target: 0, power: null },
  }],
  ["garbage after the fields is ignored", "T:20 /0 B:nan /x junk:1", {
    tool0: { actual: 20, target: 0, power: null },
  }],
];

for (const [what, line, expected] of CASES) {
  Deno.test(`parseTemperatures() reads ${what}`, () => {
    assert.equal(isTemperatureReport(line), true);
    assert.deepEqual(parseTemperatures(line), expected);
  });
}

Deno.test("isTemperatureReport() tells a report from other lines", () => {
  for (
    const line of ["echo:T:20", "ok", "Cap:AUTOREPORT_TEMP:1", "TEMP:1", "X:0.00 Y:0.00 Z:0.00"]
  ) {
    assert.equal(isTemperatureReport(line), false, line);
  }
});

Deno.test("parseTemperatures() of a line without heaters is empty, never an exception", () => {
  assert.deepEqual(parseTemperatures(""), {});
  assert.deepEqual(parseTemperatures("T:"), {});
  assert.deepEqual(parseTemperatures("T:1e999999 E:-3"), {
    tool0: { actual: 1, target: null, power: null },
  });
});
