import assert from "node:assert/strict";
import type { DecodedLine } from "../../../../lib/printer/marlin/line_decoder.ts";
import { LineConn } from "../../../../lib/printer/remote/line_conn.ts";
import { socketDir, until } from "./_fake_printer.ts";

/** Two connected ends of a Unix socket. */
async function pair(path: string): Promise<[Deno.UnixConn, Deno.UnixConn]> {
  const listener = Deno.listen({ transport: "unix", path });
  const [near, far] = await Promise.all([
    Deno.connect({ transport: "unix", path }),
    listener.accept(),
  ]);
  listener.close();
  return [near, far];
}

Deno.test("a LineConn reads lines split anywhere and reports an overlong one", async () => {
  await using tmp = await socketDir();
  const [near, far] = await pair(tmp.path);
  const lines: DecodedLine[] = [];
  const conn = new LineConn(near, { maxLineBytes: 8, onLine: (line) => lines.push(line) });
  const enc = new TextEncoder();
  for (const part of ['{"a":', "1}\n{}", "\n0123456789abc\nok\n"]) {
    await far.write(enc.encode(part));
  }
  await until(() => lines.length === 4);
  assert.deepEqual(lines, [
    { type: "line", text: '{"a":1}' },
    { type: "line", text: "{}" },
    { type: "overflow", bytes: 8 },
    { type: "line", text: "ok" },
  ]);
  far.close();
  await conn.done;
  assert.ok(conn.closed, "the peer's end ends it");
});

Deno.test("a LineConn drops a peer that lets more than its cap wait, and end() flushes first", async () => {
  await using tmp = await socketDir();
  const [near, far] = await pair(tmp.path);
  const reasons: string[] = [];
  const conn = new LineConn(near, {
    maxLineBytes: 64,
    maxQueueBytes: 100_000,
    onLine: () => {},
    onClose: (reason) => reasons.push(reason),
  });
  const chunk = new Uint8Array(10_000).fill(0x61);
  let sent = 0;
  while (conn.send(chunk)) {
    sent++;
    assert.ok(sent < 1000, "never dropped");
    await new Promise((r) => setTimeout(r, 0));
  }
  assert.deepEqual(reasons, ["overflow"]);
  assert.equal(conn.send(chunk), false, "closed");
  await conn.done;
  far.close();

  const [near2, far2] = await pair(tmp.path);
  const flushing = new LineConn(near2, { maxLineBytes: 64, onLine: () => {} });
  flushing.send(new TextEncoder().encode("bye\n"));
  flushing.end();
  await flushing.done;
  const got = await new Response(far2.readable).text();
  assert.equal(got, "bye\n");
});
