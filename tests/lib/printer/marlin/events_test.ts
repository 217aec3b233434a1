import assert from "node:assert/strict";
import { eventOf } from "../../../../lib/printer/marlin/events.ts";
import { parseLine } from "../../../../lib/printer/marlin/responses.ts";

Deno.test("eventOf() turns reports, echoes, errors, SD status and unknown lines into events", () => {
  const cases: [string, unknown][] = [
    ["T:44 E:0 B:45", {
      type: "temperatures",
      time: 7,
      temperatures: {
        tool0: { actual: 44, target: null, power: null },
        bed: { actual: 45, target: null, power: null },
      },
    }],
    ["echo:SD card ok", { type: "echo", text: "SD card ok" }],
    ['echo:Unknown command: "M999x"', { type: "echo", text: 'Unknown command: "M999x"' }],
    ["Error:MINTEMP triggered", { type: "printerError", message: "MINTEMP triggered" }],
    ["SD printing byte 10/20", { type: "sd", printing: true, byte: 10, total: 20 }],
    ["Not SD printing", { type: "sd", printing: false, byte: null, total: null }],
    ["\uFFFDgarbage", { type: "unknown", text: "\uFFFDgarbage" }],
  ];
  for (const [line, event] of cases) {
    assert.deepEqual(eventOf(parseLine(line), line, 7), event, line);
  }
});

Deno.test("eventOf() leaves the lines the session itself handles to it", () => {
  for (
    const line of ["ok T:20 /0", "Resend: 3", "start", "!!", "echo:busy: processing", "wait", ""]
  ) {
    assert.equal(eventOf(parseLine(line), line, 0), null, line);
  }
});
