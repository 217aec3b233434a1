/** The channel between the launcher of `deno task host` and the scoped host it supervises. */
import assert from "node:assert/strict";
import {
  decodeMessage,
  encodeMessage,
  type HostMessage,
  isNetTarget,
} from "../../../lib/host/supervise/protocol.ts";
import { SupervisorLink } from "../../../lib/host/supervise/link.ts";

Deno.test("the launcher channel carries only its own messages and answers probes by id", async () => {
  assert.equal(decodeMessage("Plugin host listening on http://x/"), null);
  assert.equal(decodeMessage('{"other": 1}'), null);
  const line = encodeMessage({ type: "restart", reason: "r" });
  assert.deepEqual(decodeMessage(line.trim()), { type: "restart", reason: "r" });
  assert.ok(
    isNetTarget("127.0.0.1:80") && isNetTarget("[::1]:8080") && isNetTarget("hub.local:81"),
  );
  assert.ok(!isNetTarget("a,b:1") && !isNetTarget("host") && !isNetTarget("h:1/x"));

  const sent: string[] = [];
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  let closed = false;
  const link = new SupervisorLink({
    write: (t) => sent.push(t),
    input: readable,
    onClose: () => closed = true,
  });
  const answer = link.probe({
    plugin: "branchplus",
    probe: "hub",
    args: { port: 1 },
    net: ["h:1"],
  });
  const request = decodeMessage<HostMessage>(sent[0]!.trim()) as { type: "probe"; id: number };
  assert.equal(request.type, "probe");
  const writer = writable.getWriter();
  await writer.write(
    new TextEncoder().encode(
      encodeMessage({ type: "probe_result", id: request.id, result: { ok: true } }),
    ),
  );
  assert.deepEqual(await answer, { ok: true });
  const lost = link.probe({ plugin: "branchplus", probe: "hub", args: {}, net: ["h:1"] });
  await writer.close();
  await assert.rejects(lost, /launcher is gone/);
  assert.equal(closed, true);
  assert.throws(() => link.restart("x"), /launcher/);
});

Deno.test("the launcher's log lines reach the host's onLog with their file, and a malformed log message is ignored", async () => {
  const got: [string[], string][] = [];
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const { promise: closed, resolve } = Promise.withResolvers<void>();
  new SupervisorLink({
    write: () => {},
    input: readable,
    onLog: (lines, file) => got.push([lines, file]),
    onClose: resolve,
  });
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  await writer.write(
    encoder.encode(encodeMessage({ type: "log", lines: ["a - ERROR - b", "  c"] })),
  );
  await writer.write(
    encoder.encode(encodeMessage({ type: "log", lines: ["ref 1", "    at f"], file: "errors" })),
  );
  await writer.write(encoder.encode('{"localbench_host": {"type": "log", "lines": "x"}}\n'));
  await writer.write(
    encoder.encode('{"localbench_host": {"type": "log", "lines": ["y"], "file": "../x"}}\n'),
  );
  await writer.close();
  await closed;
  assert.deepEqual(got, [
    [["a - ERROR - b", "  c"], "host"],
    [["ref 1", "    at f"], "errors"],
    [["y"], "host"],
  ]);
});
