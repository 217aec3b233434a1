import assert from "node:assert/strict";
import { formatUptime } from "../../../plugins/host_uptime/mod.ts";

Deno.test("formatUptime() builds the full form from the largest non-zero unit down", () => {
  const cases: [number, string][] = [[0, "0s"], [1, "1s"], [61, "1m 1s"], [3601, "1h 0m 1s"], [
    90061,
    "1d 1h 1m 1s",
  ], [59.9, "59s"]];
  for (const [s, full] of cases) assert.equal(formatUptime(s).full, full, String(s));
});

Deno.test("formatUptime() builds the dhm form as <d>d <h>h <m>m, zero days and hours included", () => {
  assert.equal(formatUptime(480).dhm, "0d 0h 8m");
  assert.equal(formatUptime(3600).dhm, "0d 1h 0m");
  assert.equal(formatUptime(59).dhm, "0d 0h 0m");
  assert.equal(formatUptime(90061).dhm, "1d 1h 1m");
});

Deno.test("formatUptime() builds the dh and d forms", () => {
  assert.equal(formatUptime(3600).dh, "1h");
  assert.equal(formatUptime(90061).dh, "1d 1h");
  assert.equal(formatUptime(90061).d, "1d");
  assert.equal(formatUptime(3600).d, "0d");
});

Deno.test("formatUptime() builds the short form without spaces or leading zero units", () => {
  assert.equal(formatUptime(2 * 86400 + 3 * 3600 + 15 * 60).short, "2d3h15m");
  assert.equal(formatUptime(3 * 3600 + 15 * 60).short, "3h15m");
  assert.equal(formatUptime(15 * 60 + 9).short, "15m");
  assert.equal(formatUptime(2 * 86400 + 5 * 60).short, "2d0h5m");
  assert.equal(formatUptime(30).short, "0m");
});
