import assert from "node:assert/strict";
import {
  countChannels,
  encodeCommand,
  mergeReadings,
  parseCommand,
  parseFrame,
} from "../../../plugins/branchplus/protocol.ts";

Deno.test("parseFrame() reads the nested snapshot the hub sends on connect", () => {
  const frame = JSON.stringify({
    control: { usb: [{ id: 1, on: 1 }, { id: 2, on: 0 }], mx24v: [{ id: 1, on: 0 }] },
  });
  assert.deepEqual(parseFrame(frame), [
    { kind: "usb", id: 1, on: 1 },
    { kind: "usb", id: 2, on: 0 },
    { kind: "mx24v", id: 1, on: 0 },
  ]);
});

Deno.test("parseFrame() reads channel lists at the top level of later frames", () => {
  assert.deepEqual(parseFrame('{"mx24v":[{"id":3,"on":true}]}'), [{ kind: "mx24v", id: 3, on: 1 }]);
});

Deno.test("parseFrame() skips entries without an integer id and treats truthy on as 1", () => {
  const frame = '{"usb":[{"on":1},{"id":"2","on":"yes"},{"id":1.5,"on":1},"x",{"id":4}]}';
  assert.deepEqual(parseFrame(frame), [{ kind: "usb", id: 2, on: 1 }, {
    kind: "usb",
    id: 4,
    on: 0,
  }]);
});

Deno.test("parseFrame() ignores text that is not JSON or carries no channel lists", () => {
  assert.equal(parseFrame("hello"), undefined);
  assert.equal(parseFrame("[1,2]"), undefined);
  assert.equal(parseFrame('{"status":"ok"}'), undefined);
});

Deno.test("encodeCommand() writes one object keyed by kind with on as 0 or 1", () => {
  assert.equal(encodeCommand("usb", 3, true), '{"usb":{"id":3,"on":1}}');
  assert.equal(encodeCommand("mx24v", 1, false), '{"mx24v":{"id":1,"on":0}}');
  assert.deepEqual(parseCommand(encodeCommand("mx24v", 2, true)), { kind: "mx24v", id: 2, on: 1 });
  assert.equal(parseCommand('{"usb":{"id":"x"}}'), undefined);
});

Deno.test("mergeReadings() merges into a copy and reports only the changed channels", () => {
  const snapshot = { usb: { "1": 0 as const, "2": 1 as const } };
  const { merged, changed } = mergeReadings(snapshot, [
    { kind: "usb", id: 1, on: 1 },
    { kind: "usb", id: 2, on: 1 },
    { kind: "mx24v", id: 5, on: 0 },
  ]);
  assert.deepEqual(merged, { usb: { "1": 1, "2": 1 }, mx24v: { "5": 0 } });
  assert.deepEqual(changed, { usb: { "1": 1 }, mx24v: { "5": 0 } });
  assert.deepEqual(snapshot, { usb: { "1": 0, "2": 1 } });
  assert.equal(countChannels(merged), 3);
});
