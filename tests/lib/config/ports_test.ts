import assert from "node:assert/strict";
import { normalisePorts } from "../../../lib/config/mod.ts";

const cases: [string, unknown, number[]][] = [
  ["keeps valid integers in order", [8080, 1234], [8080, 1234]],
  ["parses digit strings after trimming", ["1234", " 1235 "], [1234, 1235]],
  ["drops duplicates keeping the first", [1235, 1234, 1235, "1234"], [1235, 1234]],
  ["drops out-of-range ports", [0, -1, 65536, 70000, 65535], [65535]],
  ["drops non-integers and non-digit strings", [1234.5, "12a", "1234.0", null, true, {}, 1236], [
    1236,
  ]],
  ["falls back to the defaults for a non-array", "1234", [1234, 1235]],
  ["falls back to the defaults for null", null, [1234, 1235]],
  ["falls back to the defaults for an object", { a: 1 }, [1234, 1235]],
  ["falls back to the defaults for an empty array", [], [1234, 1235]],
  ["falls back to the defaults when nothing survives", ["x", 0], [1234, 1235]],
];

for (const [name, input, expected] of cases) {
  Deno.test(`normalisePorts() ${name}`, () => {
    assert.deepEqual(normalisePorts(input), expected);
  });
}

Deno.test("normalisePorts() returns a fresh array each time", () => {
  const a = normalisePorts(undefined);
  a.push(1);
  assert.deepEqual(normalisePorts(undefined), [1234, 1235]);
});
