import assert from "node:assert/strict";
import {
  EntryGrouper,
  quickLevel,
  startsEntry,
  startsEntryAt,
} from "../../../plugins/logmonitor/entries.ts";
import { parseLine } from "../../../plugins/logmonitor/parse.ts";

const TS = "2024-01-01 12:00:00,000";

Deno.test("startsEntry() and startsEntryAt() agree on what begins an entry", () => {
  for (
    const line of [`${TS} - a - INFO - x`, "2024-01-01 12:00:00", "  File", "2024-01-01", "", "x"]
  ) {
    const bytes = new TextEncoder().encode(line + "\n");
    assert.equal(startsEntryAt(bytes, 0), startsEntry(line), line);
  }
});

Deno.test("EntryGrouper holds an entry until the next one starts and joins its traceback", () => {
  const g = new EntryGrouper();
  assert.deepEqual(g.push("orphan line", 12).map((e) => e.level), ["UNKNOWN"]);
  assert.deepEqual(g.push(`${TS} - app - ERROR - boom`, 40), []);
  assert.deepEqual(g.push("Traceback (most recent call last):", 36), []);
  assert.ok(g.holding);
  const [done] = g.push(`${TS} - app - INFO - next`, 40);
  assert.equal(done!.level, "ERROR");
  assert.equal(done!.message, "boom\nTraceback (most recent call last):");
  const [next] = g.close();
  assert.equal(next!.message, "next");
  const [late] = g.push("  late continuation", 20);
  assert.deepEqual(
    [late!.level, late!.message, late!.continuation, late!.timestamp],
    ["INFO", "  late continuation", true, TS],
  );
});

Deno.test("quickLevel() answers only when parseLine() gives that same level", () => {
  const enc = new TextEncoder();
  let seed = 3;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = (xs: string[]) => xs[Math.floor(rand() * xs.length)]!;
  let answered = 0;
  const lines = [
    `${TS} - app - ERROR - boom`,
    `2024-01-01 12:00:00 - app - INFO - x`,
    `${TS} - a-b - INFO - x`,
    `${TS} - app - INFO - `,
    `${TS} - app - INFO - a\rb`,
  ];
  for (let i = 0; i < 20000; i++) {
    lines.push([
      pick([TS, "2024-01-01 12:00:00", "2024-01-01 12:00:00,12", "x"]),
      pick([" - ", "  -  ", " -", "-"]),
      pick(["app.core", "a-b", " app", "", "a b"]),
      pick([" - ", "  - ", " -- "]),
      pick(["INFO", "ERROR", "CRITICAL", "WARN", "DEBUG", "UNKNOWN", "info"]),
      pick([" - ", " -", "  - "]),
      pick(["msg", "", "a\rb", "x\u2028y", "— dash", "°C", "- CRITICAL -"]),
    ].join(""));
  }
  for (const line of lines) {
    const bytes = enc.encode(line);
    const quick = quickLevel(bytes, 0, bytes.length);
    if (quick === null) continue;
    answered++;
    assert.equal(quick, parseLine(line).level, JSON.stringify(line));
  }
  assert.ok(answered > 50, `${answered} answered`);
  assert.equal(quickLevel(enc.encode(lines[0]!), 0, lines[0]!.length), "ERROR");
});
