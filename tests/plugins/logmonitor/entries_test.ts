import assert from "node:assert/strict";
import { EntryGrouper, startsEntry, startsEntryAt } from "../../../plugins/logmonitor/entries.ts";

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
