import assert from "node:assert/strict";
import { UsageError } from "../../../../lib/error.ts";
import {
  BadRequestLine,
  encodeLine,
  parseRequest,
} from "../../../../lib/printer/remote/protocol.ts";

function refusal(line: string): BadRequestLine {
  try {
    parseRequest(line);
  } catch (err) {
    assert.ok(err instanceof BadRequestLine);
    assert.ok(err instanceof UsageError, "a client's mistake: 400 at the host's edge");
    return err;
  }
  assert.fail(`accepted ${line}`);
}

Deno.test("parseRequest() takes each method of the printer with its arguments", () => {
  const cases: [string, unknown[]][] = [
    ["ports", []],
    ["connect", [{ port: "/dev/ttyACM0", baudrate: 250000 }]],
    ["disconnect", []],
    ["fakeAck", []],
    ["setTargets", [{ tool0: 210, bed: 0 }]],
    ["commands", [["G28", "M105"]]],
    ["startJob", ["cube.gcode"]],
    ["pauseJob", []],
    ["resumeJob", []],
    ["cancelJob", []],
  ];
  for (const [method, params] of cases) {
    const line = JSON.stringify({ id: 4, method, params });
    assert.deepEqual(parseRequest(line), { id: 4, method, params });
  }
  assert.deepEqual(parseRequest('{"id": "a", "method": "ports"}'), {
    id: "a",
    method: "ports",
    params: [],
  });
});

Deno.test("parseRequest() refuses what is not JSON or not a request, without an id to answer", () => {
  for (const line of ["", "{", "not json", "[1]", "null", '{"method": "ports"}', '{"id": 1.5}']) {
    assert.equal(refusal(line).id, null, line);
  }
  assert.match(refusal("[".repeat(100) + "]".repeat(100)).message, /nested deeper/);
  assert.equal(refusal(JSON.stringify({ id: "x".repeat(65), method: "ports" })).id, null);
});

Deno.test("parseRequest() names the method the printer lacks and keeps the id", () => {
  for (const method of ["reboot", "snapshot", "subscribe", "constructor", "__proto__", 7]) {
    const err = refusal(JSON.stringify({ id: 9, method, params: [] }));
    assert.equal(err.id, 9);
    assert.match(err.message, /has no method/);
  }
});

Deno.test("parseRequest() refuses arguments that are not the method's", () => {
  const bad = [
    ["startJob", [3]],
    ["startJob", []],
    ["startJob", ["a", "b"]],
    ["setTargets", [{ tool0: "hot" }]],
    ["commands", ["G28"]],
    ["connect", [{ port: "/dev/ttyUSB0" }]],
    ["pauseJob", [true]],
    ["ports", {}],
  ];
  for (const [method, params] of bad) {
    const err = refusal(JSON.stringify({ id: 2, method, params }));
    assert.equal(err.id, 2);
    assert.match(err.message, new RegExp(`Invalid params of '${method}'`));
  }
});

Deno.test("encodeLine() writes one line, whatever line breaks the strings hold", () => {
  const text = new TextDecoder().decode(
    encodeLine({
      event: { type: "terminal", line: { time: 1, direction: "info", text: "a\nb\r" } },
      update: null!,
    }),
  );
  assert.equal(text.indexOf("\n"), text.length - 1);
  assert.ok(!text.includes("\r"));
});
