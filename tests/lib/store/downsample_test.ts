import assert from "node:assert/strict";
import { downsampleLine } from "../../../lib/store/downsample.ts";

Deno.test("a line is downsampled by runs of results; nulls are never its minimum or maximum", () => {
  assert.deepEqual(downsampleLine([3, null, 1, 2], 4), [0, 1, 2, 3], "short enough: whole");
  assert.deepEqual(downsampleLine([null, 5, null, 1, 9, null], 4), [0, 3, 4, 5]);
  const long = Array.from({ length: 1000 }, (_, i) => i % 10);
  const kept = downsampleLine(long, 40);
  assert.ok(kept.length <= 40, `${kept.length} points`);
  assert.deepEqual([kept[0], kept.at(-1)], [0, 999]);
});
