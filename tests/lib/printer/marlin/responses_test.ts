import assert from "node:assert/strict";
import { FIRMWARE_LINE } from "./_fake_marlin.ts";
import {
  firmwareInfo,
  type MarlinLine,
  parseLine,
} from "../../../../lib/printer/marlin/responses.ts";

const OK = { kind: "ok", line: null, duplicate: false, temperatures: null } as const;

/** Lines as printers print them (Marlin 1.1 and 2.1, forks, old firmware) and what they mean. */
const LOG: [string, MarlinLine][] = [
  ["ok", OK],
  ["ok\r", OK],
  ["OK", OK],
  ["ok N:4", { ...OK, line: 4 }],
  ["ok 51", { ...OK, line: 51 }],
  ["ok N10 P15 B3", { ...OK, line: 10 }],
  ["ok duplicate line:4", { ...OK, line: 4, duplicate: true }],
  ["ok T:20.3 /0.0 B:19.2 /0.0 @:0 B@:0", {
    ...OK,
    temperatures: {
      tool0: { actual: 20.3, target: 0, power: 0 },
      bed: { actual: 19.2, target: 0, power: 0 },
    },
  }],
  [" T:210.00 /210.00 B:60.00 /60.00 @:64 B@:12", {
    kind: "temperatures",
    temperatures: {
      tool0: { actual: 210, target: 210, power: 64 },
      bed: { actual: 60, target: 60, power: 12 },
    },
  }],
  ["T:44 E:0 B:45", {
    kind: "temperatures",
    temperatures: {
      tool0: { actual: 44, target: null, power: null },
      bed: { actual: 45, target: null, power: null },
    },
  }],
  ["echo:busy: processing", { kind: "busy", reason: "processing" }],
  ["busy: paused for user", { kind: "busy", reason: "paused for user" }],
  ["echo:Marlin 2.1.2.1", { kind: "echo", text: "Marlin 2.1.2.1" }],
  ["echo: Last Updated: 2023-07-11 | Author: (none)", {
    kind: "echo",
    text: "Last Updated: 2023-07-11 | Author: (none)",
  }],
  ["echo:  M92 X80.00 Y80.00 Z400.00 E93.00", {
    kind: "echo",
    text: "M92 X80.00 Y80.00 Z400.00 E93.00",
  }],
  ['echo:Unknown command: "M999x"', { kind: "unknownCommand", command: "M999x" }],
  ["echo:Unknown command: G999", { kind: "unknownCommand", command: "G999" }],
  ["Error:checksum mismatch, Last Line: 11", {
    kind: "lineError",
    message: "checksum mismatch, Last Line: 11",
    lastLine: 11,
  }],
  ["Error:Line Number is not Last Line Number+1, Last Line: 11", {
    kind: "lineError",
    message: "Line Number is not Last Line Number+1, Last Line: 11",
    lastLine: 11,
  }],
  ["Error:No Checksum with line number, Last Line: 11", {
    kind: "lineError",
    message: "No Checksum with line number, Last Line: 11",
    lastLine: 11,
  }],
  ["Error:No Line Number with checksum", {
    kind: "lineError",
    message: "No Line Number with checksum",
    lastLine: null,
  }],
  ["Resend: 12", { kind: "resend", line: 12 }],
  ["Resend:12", { kind: "resend", line: 12 }],
  ["rs 12", { kind: "resend", line: 12 }],
  ["Resend: -1", { kind: "resend", line: -1 }],
  ["Resend: 1000000000000", { kind: "resend", line: 1e12 }],
  ["wait", { kind: "wait" }],
  ["start", { kind: "start" }],
  ["// action:pause", { kind: "comment", text: "action:pause" }],
  ["", { kind: "empty" }],
  ["   ", { kind: "empty" }],
  ["Error:Printer halted. kill() called!", {
    kind: "halt",
    message: "Printer halted. kill() called!",
  }],
  ["!!", { kind: "halt", message: "!!" }],
  ["!! Lost communication with MCU", { kind: "halt", message: "!! Lost communication with MCU" }],
  ["Error:Thermal Runaway, system stopped! Heater_ID: 0", {
    kind: "error",
    message: "Thermal Runaway, system stopped! Heater_ID: 0",
  }],
  ["Cap:AUTOREPORT_TEMP:1", { kind: "capability", name: "AUTOREPORT_TEMP", enabled: true }],
  ["Cap:EMERGENCY_PARSER:0", { kind: "capability", name: "EMERGENCY_PARSER", enabled: false }],
  ["SD printing byte 1234/56789", { kind: "sd", printing: true, byte: 1234, total: 56789 }],
  ["Not SD printing", { kind: "sd", printing: false, byte: null, total: null }],
  ["X:0.00 Y:0.00 Z:0.00 E:0.00 Count X:0 Y:0 Z:0", {
    kind: "unknown",
    text: "X:0.00 Y:0.00 Z:0.00 E:0.00 Count X:0 Y:0 Z:0",
  }],
  ["\uFFFD\uFFFD\u0000ok", { kind: "unknown", text: "\uFFFD\uFFFD\u0000ok" }],
  ["Resend: banana", { kind: "unknown", text: "Resend: banana" }],
  ["Cap:AUTOREPORT_TEMP:2", { kind: "unknown", text: "Cap:AUTOREPORT_TEMP:2" }],
];

for (const [line, expected] of LOG) {
  Deno.test(`parseLine() reads ${JSON.stringify(line)} as ${expected.kind}`, () => {
    assert.deepEqual(parseLine(line), expected);
  });
}

Deno.test("parseLine() splits M115's firmware line into its fields", () => {
  const line = parseLine(FIRMWARE_LINE);
  assert.equal(line.kind, "firmware");
  assert.deepEqual(line.kind === "firmware" && line.fields, {
    FIRMWARE_NAME: "Marlin 2.1.2.1 (Jul 11 2023 12:00:00)",
    SOURCE_CODE_URL: "github.com/MarlinFirmware/Marlin",
    PROTOCOL_VERSION: "1.0",
    MACHINE_TYPE: "Ender-3",
    EXTRUDER_COUNT: "1",
    UUID: "cede2a2f-41a2-4748-9b12-c55c62f367ff",
  });
});

Deno.test("parseLine() survives anything: long, binary or hostile lines parse without throwing", () => {
  const hostile = [
    "A".repeat(4096),
    "ok ".repeat(2000),
    "T:".repeat(2000),
    "Resend: " + "9".repeat(400),
    "FIRMWARE_NAME:",
    "FIRMWARE_NAME:" + "A:".repeat(1000),
    String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i)),
  ];
  for (const line of hostile) assert.ok(parseLine(line).kind, line.slice(0, 20));
  assert.deepEqual(parseLine("Resend: " + "9".repeat(400)), { kind: "resend", line: Infinity });
});

Deno.test("firmwareInfo() gathers M115's name, fields and capabilities, ignoring other lines", () => {
  const info = firmwareInfo([
    "echo:busy: processing",
    FIRMWARE_LINE,
    "Cap:SERIAL_XON_XOFF:0",
    "Cap:AUTOREPORT_TEMP:1",
    "Cap:SDCARD:1",
    "ok",
  ]);
  assert.equal(info.name, "Marlin 2.1.2.1 (Jul 11 2023 12:00:00)");
  assert.equal(info.fields.EXTRUDER_COUNT, "1");
  assert.deepEqual(info.capabilities, {
    SERIAL_XON_XOFF: false,
    AUTOREPORT_TEMP: true,
    SDCARD: true,
  });
});

Deno.test("firmwareInfo() of a firmware that does not answer M115 knows nothing", () => {
  assert.deepEqual(firmwareInfo(["ok"]), { name: null, fields: {}, capabilities: {} });
});
