import assert from "node:assert/strict";
import { appendLiveLines, type ClientLine } from "../../../plugins/logmonitor/browser_api.ts";

const entry = (message: string, source?: string): ClientLine => ({
  timestamp: "2024-01-01 12:00:00,000",
  logger: "app",
  level: "ERROR",
  message,
  raw: `2024-01-01 12:00:00,000 - app - ERROR - ${message}`,
  ...(source ? { _source_file: source } : {}),
});
const more = (text: string, source?: string): ClientLine => ({
  ...entry(text, source),
  raw: text,
  continuation: true,
});

Deno.test("appendLiveLines() joins continuation pushes into their entry's row", () => {
  let rows = appendLiveLines([entry("boot")], [entry("hook failed")], 100);
  rows = appendLiveLines(rows, [more("Traceback (most recent call last):")], 100);
  rows = appendLiveLines(rows, [
    more('  File "plugin.py", line 3, in run'),
    more("ValueError: bad"),
  ], 100);
  assert.deepEqual(rows.map((r) => r.message), [
    "boot",
    'hook failed\nTraceback (most recent call last):\n  File "plugin.py", line 3, in run\nValueError: bad',
  ]);
  assert.equal(
    rows[1]!.raw,
    "2024-01-01 12:00:00,000 - app - ERROR - hook failed\nTraceback (most recent call last):\n" +
      '  File "plugin.py", line 3, in run\nValueError: bad',
  );
  assert.equal(rows[1]!.continuation, undefined, "the joined row is an entry");
});

Deno.test("appendLiveLines() joins a continuation into the newest entry of its own file", () => {
  const rows = appendLiveLines(
    [entry("a failed", "a.log"), entry("b ok", "b.log")],
    [more("Traceback of a", "a.log")],
    100,
  );
  assert.deepEqual(rows.map((r) => r.message), ["a failed\nTraceback of a", "b ok"]);
});

Deno.test("appendLiveLines() shows a continuation whose entry is gone as a row of its own", () => {
  const rows = appendLiveLines([entry("x", "b.log")], [more("orphan", "a.log")], 100);
  assert.deepEqual(rows.map((r) => r.message), ["x", "orphan"]);
});

Deno.test("appendLiveLines() keeps the newest max rows", () => {
  const rows = appendLiveLines([entry("1"), entry("2")], [entry("3"), more("3b")], 2);
  assert.deepEqual(rows.map((r) => r.message), ["2", "3\n3b"]);
});
