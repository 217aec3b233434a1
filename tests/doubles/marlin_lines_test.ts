import assert from "node:assert/strict";
import { checkLine, checksum, emergencyCommand, parseCommand } from "./marlin_lines.ts";

Deno.test("checksum is the XOR of every byte, as in the host's first line N0 M110 N0*125", () => {
  assert.equal(checksum("N0 M110 N0"), 125);
  assert.equal(checksum(""), 0);
  assert.equal(checksum("N1 G28"), "N1 G28".split("").reduce((cs, c) => cs ^ c.charCodeAt(0), 0));
});

Deno.test("a numbered line with the next number and a right checksum is accepted without its framing", () => {
  assert.deepEqual(checkLine(`N5 G1 X10*${checksum("N5 G1 X10")}`, 4), {
    ok: true,
    command: "G1 X10",
    lastN: 5,
  });
});

Deno.test("the line number is checked before the checksum", () => {
  assert.deepEqual(checkLine("N7 G1 X10*0", 4), { ok: false, fault: "line-number" });
  assert.deepEqual(checkLine("N5 G1 X10*0", 4), { ok: false, fault: "checksum" });
  assert.deepEqual(checkLine("N5 G1 X10", 4), { ok: false, fault: "no-checksum" });
});

Deno.test("M110 sets the line number from its own N, whatever the last one was", () => {
  assert.deepEqual(checkLine("N0 M110 N0*125", 41), { ok: true, command: "M110 N0", lastN: 0 });
  const line = "N9 M110 N100";
  assert.deepEqual(checkLine(`${line}*${checksum(line)}`, 3), {
    ok: true,
    command: "M110 N100",
    lastN: 100,
  });
});

Deno.test("a line without N is taken as it is and leaves the line number alone", () => {
  assert.deepEqual(checkLine("  M105 ; poll", 12), { ok: true, command: "M105", lastN: 12 });
});

Deno.test("the emergency parser sees M108, M112 and M410 with or without a line number", () => {
  assert.equal(emergencyCommand("M112"), "M112");
  assert.equal(emergencyCommand("N12 M108*99"), "M108");
  assert.equal(emergencyCommand("M410"), "M410");
  assert.equal(emergencyCommand("M1120"), null);
  assert.equal(emergencyCommand("M117 M112"), null);
});

Deno.test("parseCommand splits the code, its parameters and the text after it", () => {
  const m104 = parseCommand("M104 S210 T0");
  assert.equal(m104.code, "M104");
  assert.deepEqual([...m104.params], [["S", "210"], ["T", "0"]]);
  assert.deepEqual([...parseCommand("G1X10.5Y-2").params], [["X", "10.5"], ["Y", "-2"]]);
  assert.equal(parseCommand("m23 cube.gco").rest, "cube.gco");
  assert.equal(parseCommand("g01 X1").code, "G1");
  assert.equal(parseCommand("HELLO world").code, "HELLO");
});
