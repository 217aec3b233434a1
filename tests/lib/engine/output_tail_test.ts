import assert from "node:assert/strict";
import { drainOutput } from "../../../lib/engine/output_tail.ts";

const bytes = (...parts: string[]) =>
  ReadableStream.from(parts.map((p) => new TextEncoder().encode(p)));

Deno.test("drainOutput() splits lines across chunks and streams and keeps the last ones", async () => {
  const seen: string[] = [];
  const tail = drainOutput([bytes("a\nb", "c\r\nd"), bytes("x\n")], {
    keep: 3,
    onLine: (l) => seen.push(l),
  });
  await tail.done;
  assert.deepEqual(seen.sort(), ["a", "bc", "d", "x"]);
  assert.equal(tail.lines().length, 3);
});
