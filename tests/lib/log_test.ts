import assert from "node:assert/strict";
import { createLogger, sanitizeLogText } from "../../lib/log.ts";

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
