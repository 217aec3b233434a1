import assert from "node:assert/strict";
import { UsageError } from "../../../../lib/error.ts";
import { MAX_TARGET_C, targetCommand } from "../../../../lib/printer/marlin/commands.ts";

Deno.test("targetCommand() sets tool, bed and chamber targets with M104, M140 and M141", () => {
  assert.equal(targetCommand("tool0", 215), "M104 T0 S215");
  assert.equal(targetCommand("tool1", 0), "M104 T1 S0");
  assert.equal(targetCommand("bed", 60), "M140 S60");
  assert.equal(targetCommand("chamber", 45.5), "M141 S45.5");
  assert.equal(targetCommand("bed", MAX_TARGET_C), `M140 S${MAX_TARGET_C}`);
});

Deno.test("targetCommand() refuses unknown heaters and targets out of range with a UsageError", () => {
  for (const heater of ["tool", "toolX", "tool123", "extruder", "bed ", "Bed"]) {
    assert.throws(() => targetCommand(heater, 50), UsageError, heater);
  }
  for (const celsius of [-1, MAX_TARGET_C + 1, NaN, Infinity]) {
    assert.throws(() => targetCommand("bed", celsius), UsageError, String(celsius));
  }
});
