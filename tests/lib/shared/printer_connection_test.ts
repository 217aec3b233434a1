import assert from "node:assert/strict";
import {
  appendLines,
  linePrefix,
  phaseOf,
  TERMINAL_MAX_LINES,
  type TerminalLine,
} from "../../../lib/shared/printer_connection.ts";

const line = (text: string, time = 1): TerminalLine => ({ time, direction: "received", text });

Deno.test("appendLines() keeps the newest lines up to the bound, the page's by default", () => {
  const many = Array.from({ length: TERMINAL_MAX_LINES + 5 }, (_, i) => line(String(i)));
  const kept = appendLines([], many);
  assert.equal(kept.length, TERMINAL_MAX_LINES);
  assert.equal(kept[0]!.text, "5");
  assert.deepEqual(appendLines([line("a")], [line("b")], 0, 5).map((l) => l.text), ["a", "b"]);
});

Deno.test("appendLines() says how many lines the host left out, before the lines that follow", () => {
  const out = appendLines([line("a")], [line("z", 7)], 3, 10);
  assert.deepEqual(out.map((l) => [l.direction, l.text]), [
    ["received", "a"],
    ["info", "… 3 lines not shown (too many at once)"],
    ["received", "z"],
  ]);
  assert.equal(out[1]!.time, 7);
  assert.equal(appendLines([], [line("z")], 1)[0]!.text, "… 1 line not shown (too many at once)");
});

Deno.test("phaseOf() tells offline, connecting and an open line (a halt keeps the line open)", () => {
  assert.equal(phaseOf("OFFLINE"), "offline");
  assert.equal(phaseOf("CONNECTING"), "connecting");
  for (const s of ["OPERATIONAL", "PRINTING", "PAUSED", "ERROR"] as const) {
    assert.equal(phaseOf(s), "connected", s);
  }
});

Deno.test("linePrefix() marks sent and received lines as print hosts do, the host's own not", () => {
  assert.deepEqual(
    (["sent", "received", "info"] as const).map(linePrefix),
    ["Send:", "Recv:", ""],
  );
});
