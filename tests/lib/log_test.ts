import assert from "node:assert/strict";
import { createLogger, type DetailSink, sanitizeLogText } from "../../lib/log.ts";

Deno.test("sanitizeLogText() keeps one line, escapes control characters and cuts long text", () => {
  assert.equal(
    sanitizeLogText("a\r\nb\tc\u0085\u2028\u001b[0m"),
    "a\\r\\nb\tc\\u0085\\u2028\\u001b[0m",
  );
  assert.equal(sanitizeLogText("héllo"), "héllo");
  const long = sanitizeLogText("z".repeat(10_000), 100);
  assert.equal(long, `${"z".repeat(100)}… [9900 more characters]`);
});

Deno.test("createLogger() writes every message as one line", () => {
  const lines: string[] = [];
  const log = createLogger("t", { sink: (_l, s) => lines.push(s) });
  log.error("Error: boom\n    at f (x.ts:1:1)");
  assert.equal(lines.length, 1);
  assert.ok(lines[0]!.endsWith(" - t - ERROR - Error: boom\\n    at f (x.ts:1:1)"), lines[0]!);
});

Deno.test("Logger.failure() without a detail sink keeps the stack on the one log line", () => {
  const lines: string[] = [];
  const log = createLogger("t", { sink: (_l, s) => lines.push(s) });
  log.failure("GET /x", new TypeError("boom"));
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, / - t - ERROR - GET \/x: TypeError: boom\\n {4}at /);
});

Deno.test("Logger.failure() with a detail sink logs one line naming a reference and writes the stack under it", () => {
  const lines: string[] = [];
  const entries: { line: string; details: string[] }[] = [];
  const details: DetailSink = {
    name: "errors.log",
    write: (line, d) => entries.push({ line, details: d }),
  };
  const log = createLogger("t", { sink: (_l, s) => lines.push(s), details }).child("c");
  const err = new Error("outer\n2024-01-01 00:00:00,000 - forged - ERROR - x", {
    cause: new RangeError("inner"),
  });
  log.failure("GET /x", err);
  assert.equal(lines.length, 1);
  const m = lines[0]!.match(
    / - t\.c - ERROR - GET \/x: Error \(details: errors\.log ref ([0-9a-f]{8})\)$/,
  );
  assert.ok(m, lines[0]!);
  assert.doesNotMatch(lines[0]!, /outer|log_test\.ts/, "neither message nor stack in the log");
  assert.equal(entries.length, 1);
  assert.match(entries[0]!.line, new RegExp(` - t\\.c - ERROR - ref ${m[1]}: GET /x$`));
  const text = entries[0]!.details.join("\n");
  assert.match(text, /^ {4}Error: outer\n {4}2024-01-01 00:00:00,000 - forged/);
  assert.match(text, /log_test\.ts/, "the stack names the file");
  assert.match(text, /Caused by:\n {4}RangeError: inner/);
  assert.ok(
    entries[0]!.details.every((l) => l.startsWith("    ")),
    "no detail line starts an entry",
  );
});

Deno.test("Logger.failure() gives each failure its own reference", () => {
  const lines: string[] = [];
  const details: DetailSink = { name: "errors.log", write: () => {} };
  const log = createLogger("t", { sink: (_l, s) => lines.push(s), details });
  log.failure("a", new Error("x"));
  log.failure("b", "not an Error");
  const refs = lines.map((l) => l.match(/ref ([0-9a-f]{8})\)$/)?.[1]);
  assert.equal(new Set(refs).size, 2, lines.join("\n"));
});
