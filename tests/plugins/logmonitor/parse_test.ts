import assert from "node:assert/strict";
import { parseLine } from "../../../plugins/logmonitor/mod.ts";

Deno.test("parseLine() reads the standard print-host line", () => {
  assert.deepEqual(parseLine("2024-01-01 12:00:00,123 - octoprint.server - INFO - Starting\r\n"), {
    timestamp: "2024-01-01 12:00:00,123",
    logger: "octoprint.server",
    level: "INFO",
    message: "Starting",
    raw: "2024-01-01 12:00:00,123 - octoprint.server - INFO - Starting",
  });
});

Deno.test("parseLine() reads compact and serial I/O lines", () => {
  const compact = parseLine("2024-01-01 12:00:00,123 WARNING my.logger Disk low");
  assert.deepEqual([compact.level, compact.logger, compact.message], [
    "WARNING",
    "my.logger",
    "Disk low",
  ]);
  const io = parseLine("2024-01-01 12:00:00,123 - >>> M105");
  assert.deepEqual([io.level, io.logger, io.message], ["INFO", "serial.log", ">>> M105"]);
});

Deno.test("parseLine() infers the level of simple lines and of hyphenated loggers", () => {
  const simple = parseLine("2024-01-01 12:00:00,123 - Printer error: thermal runaway");
  assert.deepEqual([simple.level, simple.logger], ["ERROR", "serial.log"]);
  const hyphen = parseLine("2024-01-01 12:00:00,123 - my-logger - WARNING - careful");
  assert.equal(hyphen.level, "WARNING");
  assert.equal(hyphen.message, "my-logger - WARNING - careful");
});

Deno.test("parseLine() marks anything else UNKNOWN and keeps it as the message", () => {
  const p = parseLine("Traceback (most recent call last):");
  assert.deepEqual(p, {
    timestamp: "",
    logger: "",
    level: "UNKNOWN",
    message: "Traceback (most recent call last):",
    raw: "Traceback (most recent call last):",
  });
  assert.equal(parseLine("2024-01-01 12:00:00,123 - x - WARN - no").level, "INFO");
});
