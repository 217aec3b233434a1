import assert from "node:assert/strict";
import { UsageError } from "../../../../lib/error.ts";
import {
  checksum,
  cleanCommand,
  frameLine,
  stripComment,
} from "../../../../lib/printer/marlin/framing.ts";

Deno.test("checksum() is the XOR of every byte before the '*'", () => {
  assert.equal(checksum("N0 M110 N0"), 125);
  assert.equal(checksum(""), 0);
  let xor = 0;
  for (const c of "N12 G1 X10 Y20") xor ^= c.charCodeAt(0);
  assert.equal(checksum("N12 G1 X10 Y20"), xor);
  assert.equal(checksum("é"), 0xc3 ^ 0xa9, "UTF-8 bytes, as the printer reads them");
});

Deno.test("frameLine() numbers a command and appends its checksum", () => {
  assert.equal(frameLine(0, "M110 N0"), "N0 M110 N0*125");
  const line = frameLine(41, "G1 X1.5 E0.2");
  const [body, sum] = line.split("*");
  assert.equal(body, "N41 G1 X1.5 E0.2");
  assert.equal(Number(sum), checksum(body!));
});

Deno.test("stripComment() drops a ';' comment and white space, leaving '' for a comment line", () => {
  assert.equal(stripComment("G28 ; home all"), "G28");
  assert.equal(stripComment("  M104 S200  "), "M104 S200");
  assert.equal(stripComment("; only a comment"), "");
  assert.equal(stripComment(""), "");
});

Deno.test("cleanCommand() refuses an empty command, a second line smuggled in and a '*'", () => {
  assert.equal(cleanCommand("M105 ; poll"), "M105");
  for (const bad of ["", "   ", "; note", "M104 S200\nM112", "G28\rM112", "M117 a*b", "M117 \0"]) {
    assert.throws(() => cleanCommand(bad), UsageError, JSON.stringify(bad));
  }
});
